import type { FastifyInstance } from "fastify";
import { buildTestApp } from "./build-test-app.js";
import type { TestDatabase } from "./test-database.js";
import { TEST_INGEST_TOKEN } from "./upload.js";
import type { Principal } from "../src/modules/auth/access.js";

/** Test helpers shared by the tag route tests: one app per kind of caller on one database. */

export const QA_USER: Principal = {
  kind: "user",
  id: 1,
  email: "qa@example.com",
  name: "QA Engineer",
  admin: false,
};

export interface TagApps {
  /** A signed-in user. */
  user: FastifyInstance;
  /** Nobody signed in (and no token). */
  anonymous: FastifyInstance;
  /** The real resolver with an ingest service token configured: send it as a bearer token. */
  withToken: FastifyInstance;
  close(): Promise<void>;
}

export async function buildTagApps(database: TestDatabase): Promise<TagApps> {
  const user = (await buildTestApp(database.db, { resolvePrincipal: async () => QA_USER })).app;
  const anonymous = (await buildTestApp(database.db, { resolvePrincipal: async () => undefined }))
    .app;
  const withToken = (
    await buildTestApp(database.db, { env: { ASSAY_INGEST_TOKEN: TEST_INGEST_TOKEN } })
  ).app;
  return {
    user,
    anonymous,
    withToken,
    close: async () => {
      await Promise.all([user.close(), anonymous.close(), withToken.close()]);
    },
  };
}

/** Tags and links as rows, to assert that a refused call changed nothing. */
export async function tagSnapshot(database: TestDatabase) {
  const { rows: tags } = await database.db.pool.query<{ id: string; name: string }>(
    "SELECT id, name FROM tags ORDER BY id",
  );
  const { rows: links } = await database.db.pool.query<{
    id: string;
    tag_id: string;
    test_id: string;
    test_name: string;
  }>("SELECT id, tag_id, test_id, test_name FROM tagged_tests ORDER BY id");
  return { tags, links };
}

/** The id of the tag named `name`, read from the database. */
export async function tagId(database: TestDatabase, name: string): Promise<number> {
  const { rows } = await database.db.pool.query<{ id: string }>(
    "SELECT id FROM tags WHERE name = $1",
    [name],
  );
  if (!rows[0]) throw new Error(`no tag ${name}`);
  return Number(rows[0].id);
}
