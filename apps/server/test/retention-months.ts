import { RetentionFileSchema, readRetentionPolicy } from "../src/config-retention.js";
import type { RetentionDeps } from "../src/modules/retention/retention.pass.js";
import { unstableCounts } from "../src/modules/runs/runs.service.js";
import { buildTestApp, type TestApp } from "./build-test-app.js";
import { createTestDatabase, type TestDatabase } from "./test-database.js";

/**
 * Set-up shared by the retention tests on monthly partitions (retention-partitions.test.ts,
 * retention-rewrite.test.ts): one database, an app whose workers do not start (each test runs
 * its passes itself), and one policy.
 */

/** Runs go after 60 days, except those of branches keep/*, kept 3,000. */
export const KEEP_BRANCH_POLICY = readRetentionPolicy(
  RetentionFileSchema.parse({
    default: { runsDays: 60, failuresDays: 60 },
    rules: [{ branch: "keep/*", runsDays: 3000, failuresDays: 3000 }],
  }),
);

export interface RetentionTestApp {
  database: TestDatabase;
  testApp: TestApp;
  /** What a pass needs, with KEEP_BRANCH_POLICY; `rewrite` tunes and hooks into rewrites. */
  deps(rewrite?: RetentionDeps["rewrite"]): RetentionDeps;
  close(): Promise<void>;
}

export async function startRetentionTestApp(): Promise<RetentionTestApp> {
  const database = await createTestDatabase();
  // Without the app, nothing else would drop the database the failed start leaves.
  const testApp = await buildTestApp(database.db, { startWorkers: false }).catch(async (error) => {
    await database.drop();
    throw error;
  });
  return {
    database,
    testApp,
    deps: (rewrite) => ({
      db: database.db,
      objects: testApp.objects,
      policy: KEEP_BRANCH_POLICY,
      log: testApp.app.log,
      unstableCounts: (ids) => unstableCounts(database.db, ids),
      rewrite,
    }),
    close: async () => {
      await testApp.app.close();
      await database.drop();
    },
  };
}
