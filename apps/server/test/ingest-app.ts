import { afterAll, beforeAll } from "vitest";
import { buildTestApp, type TestApp } from "./build-test-app.js";
import { createTestDatabase, type TestDatabase } from "./test-database.js";
import { TEST_INGEST_TOKEN } from "./upload.js";

/** What a file's ingest tests are given: the app's parts (build-test-app.ts) and its database. */
export interface IngestApp extends TestApp {
  database: TestDatabase;
}

/**
 * Before the file's tests: a database of its own and the real app on it, taking uploads with
 * TEST_INGEST_TOKEN (the upload helpers' bearer). After them: the app closed, the database
 * dropped. `receive` is called once both are ready, so the file keeps its own `app` and
 * `database` variables and its tests read as before:
 *
 *   let database: TestDatabase;
 *   let app: FastifyInstance;
 *   useIngestApp((made) => ({ database, app } = made));
 */
export function useIngestApp(
  receive: (made: IngestApp) => void,
  options: NonNullable<Parameters<typeof buildTestApp>[1]> = {},
): void {
  let database: TestDatabase | undefined;
  let app: TestApp | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
    app = await buildTestApp(database.db, {
      ...options,
      env: { ASSAY_INGEST_TOKEN: TEST_INGEST_TOKEN, ...options.env },
    });
    receive({ ...app, database });
  });
  afterAll(async () => {
    await app?.app.close();
    await database?.drop();
  });
}
