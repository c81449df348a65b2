import { createHash } from "node:crypto";
import type pg from "pg";

import type { Family } from "@assay/core";

export type { Family };

export interface TestIdentity {
  /** The id the report carries, if any. */
  explicitId: number | undefined;
  /** family + file + suite path + name: how a test without an id is recognised across runs. */
  identity: string;
  title: string;
  file: string | undefined;
}

/** Reads a test's stable id from its tags (pattern or bare number), then its title and name. */
export function explicitTestId(
  candidates: { tags: readonly string[]; texts: readonly (string | undefined)[] },
  pattern: RegExp,
): number | undefined {
  for (const tag of candidates.tags) {
    const bare = /^@?(\d{1,15})$/.exec(tag.trim());
    const match = bare ?? pattern.exec(tag);
    if (match?.[1]) return Number(match[1]);
  }
  for (const text of candidates.texts) {
    const match = text ? pattern.exec(text) : null;
    if (match?.[1]) return Number(match[1]);
  }
  return undefined;
}

export function identityOf(
  family: Family,
  file: string | undefined,
  suitePath: readonly string[],
  name: string,
): string {
  return createHash("sha256")
    .update([family, file ?? "", ...suitePath, name].join("\u0000"))
    .digest("base64url");
}

/**
 * Resolves the stable test id of every identity in one batch: explicit ids are registered as
 * they are; the others are looked up in test_keys and assigned from test_id_seq when new.
 * Runs inside the caller's transaction, so an upload that fails assigns nothing.
 */
export async function resolveTestIds(
  client: pg.PoolClient,
  family: Family,
  tests: readonly TestIdentity[],
): Promise<number[]> {
  const explicit = tests.filter((t) => t.explicitId !== undefined);
  if (explicit.length > 0) {
    await client.query(
      `INSERT INTO tests (id, family, title, file)
       SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[])
       ON CONFLICT (id) DO NOTHING`,
      [
        explicit.map((t) => t.explicitId),
        explicit.map(() => family),
        explicit.map((t) => t.title),
        explicit.map((t) => t.file ?? null),
      ],
    );
  }
  const implicit = [
    ...new Map(
      tests.filter((t) => t.explicitId === undefined).map((t) => [t.identity, t]),
    ).values(),
  ];
  const byIdentity = new Map<string, number>();
  if (implicit.length > 0) {
    // New tests get the next ids; a concurrent upload that made the same test first wins, and
    // the lookup below reads its id.
    // New tests get the next ids. If a concurrent upload registers the same test first, its
    // key wins (ON CONFLICT) and the lookup below reads it; the spare tests row is harmless.
    await client.query(
      `WITH wanted AS MATERIALIZED (
         SELECT w.identity, w.title, w.file, nextval('test_id_seq') AS id
         FROM unnest($2::text[], $3::text[], $4::text[]) AS w(identity, title, file)
         WHERE NOT EXISTS (
           SELECT 1 FROM test_keys k WHERE k.family = $1 AND k.identity = w.identity
         )
       ), made AS (
         INSERT INTO tests (id, family, title, file) SELECT id, $1, title, file FROM wanted
       )
       INSERT INTO test_keys (family, identity, test_id)
       SELECT $1, identity, id FROM wanted
       ON CONFLICT DO NOTHING`,
      [
        family,
        implicit.map((t) => t.identity),
        implicit.map((t) => t.title),
        implicit.map((t) => t.file ?? null),
      ],
    );
    const { rows } = await client.query<{ identity: string; test_id: string }>(
      "SELECT identity, test_id FROM test_keys WHERE family = $1 AND identity = ANY($2::text[])",
      [family, implicit.map((t) => t.identity)],
    );
    for (const row of rows) byIdentity.set(row.identity, Number(row.test_id));
  }
  return tests.map((t) => t.explicitId ?? (byIdentity.get(t.identity) as number));
}
