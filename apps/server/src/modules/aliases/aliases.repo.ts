import type pg from "pg";

/**
 * The aliases module's tables (migration 0155): test_aliases (every alias with who made and
 * undid it), test_alias_suggestions, and the canonical view other modules' reads resolve through.
 */

export type Queryable = Pick<pg.Pool, "query"> | pg.PoolClient;

export interface TestRow {
  id: number;
  family: string;
  title: string;
  file: string | null;
}

export interface AliasRow {
  id: number;
  test_id: number;
  test_title: string;
  test_file: string | null;
  canonical_id: number;
  canonical_title: string;
  canonical_file: string | null;
  source: "stable_id" | "suggestion" | "manual";
  stable_key: string | null;
  suggestion_id: number | null;
  created_by: string;
  created_at: Date;
  undone_by: string | null;
  undone_at: Date | null;
}

const ALIAS_COLUMNS = `a.id::float8 AS id, a.test_id::float8 AS test_id, o.title AS test_title,
  o.file AS test_file, a.canonical_id::float8 AS canonical_id, c.title AS canonical_title,
  c.file AS canonical_file, a.source, a.stable_key, a.suggestion_id::float8 AS suggestion_id,
  a.created_by, a.created_at, a.undone_by, a.undone_at`;
const ALIAS_FROM = `FROM test_aliases a JOIN tests o ON o.id = a.test_id
  JOIN tests c ON c.id = a.canonical_id`;

export async function findTests(db: Queryable, ids: readonly number[]): Promise<TestRow[]> {
  const { rows } = await db.query<TestRow>(
    `SELECT id::float8 AS id, family, title, file FROM tests WHERE id = ANY($1::bigint[])`,
    [ids],
  );
  return rows;
}

/** For each of `ids` that is aliased (live, through chains), the test it resolves to. */
export async function canonicalOf(
  db: Queryable,
  ids: readonly number[],
): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  const { rows } = await db.query<{ test_id: number; canonical_id: number }>(
    `SELECT test_id::float8 AS test_id, canonical_id::float8 AS canonical_id
     FROM test_alias_canonical WHERE test_id = ANY($1::bigint[])`,
    [ids],
  );
  return new Map(rows.map((row) => [row.test_id, row.canonical_id]));
}

/** The tests that resolve to `canonicalId` (live aliases, through chains), itself not included. */
export async function aliasedTo(db: Queryable, canonicalId: number): Promise<number[]> {
  const { rows } = await db.query<{ test_id: number }>(
    `SELECT test_id::float8 AS test_id FROM test_alias_canonical WHERE canonical_id = $1
     ORDER BY test_id`,
    [canonicalId],
  );
  return rows.map((row) => row.test_id);
}

/**
 * For each of `ids` whose test has been renamed (it or another test resolves to its canonical
 * test), the canonical test and one row per test resolving to it. The view is resolved once.
 */
export async function groupsOf(
  db: Queryable,
  ids: readonly number[],
): Promise<{ id: number; canonical: number; member: number }[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.query<{ id: number; canonical: number; member: number }>(
    `WITH ac AS MATERIALIZED (SELECT test_id, canonical_id FROM test_alias_canonical),
     own AS (
       SELECT o.id, coalesce(ac.canonical_id, o.id) AS canonical
       FROM unnest($1::bigint[]) AS o(id) LEFT JOIN ac ON ac.test_id = o.id
     )
     SELECT own.id::float8 AS id, own.canonical::float8 AS canonical, ac.test_id::float8 AS member
     FROM own JOIN ac ON ac.canonical_id = own.canonical`,
    [ids],
  );
  return rows;
}

/** Serialises alias changes, so that two requests cannot close a cycle between them. */
export async function lockAliases(client: pg.PoolClient): Promise<void> {
  await client.query("SELECT pg_advisory_xact_lock(hashtext('assay.test-aliases'))");
}

export async function liveAliasOf(db: Queryable, testId: number): Promise<AliasRow | null> {
  const { rows } = await db.query<AliasRow>(
    `SELECT ${ALIAS_COLUMNS} ${ALIAS_FROM} WHERE a.test_id = $1 AND a.undone_at IS NULL`,
    [testId],
  );
  return rows[0] ?? null;
}

export async function findAlias(db: Queryable, id: number): Promise<AliasRow | null> {
  const { rows } = await db.query<AliasRow>(
    `SELECT ${ALIAS_COLUMNS} ${ALIAS_FROM} WHERE a.id = $1`,
    [id],
  );
  return rows[0] ?? null;
}

export interface NewAlias {
  testId: number;
  canonicalId: number;
  source: AliasRow["source"];
  stableKey?: string | null;
  suggestionId?: number | null;
  createdBy: string;
}

export async function insertAlias(db: Queryable, alias: NewAlias): Promise<number> {
  const { rows } = await db.query<{ id: number }>(
    `INSERT INTO test_aliases (test_id, canonical_id, source, stable_key, suggestion_id, created_by)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING id::float8 AS id`,
    [
      alias.testId,
      alias.canonicalId,
      alias.source,
      alias.stableKey ?? null,
      alias.suggestionId ?? null,
      alias.createdBy,
    ],
  );
  return rows[0]!.id;
}

export async function markUndone(db: Queryable, id: number, by: string): Promise<void> {
  await db.query(
    `UPDATE test_aliases SET undone_by = $2, undone_at = now() WHERE id = $1 AND undone_at IS NULL`,
    [id, by],
  );
}

/**
 * Aliases newest first: live ones, or all with `undone`; with `groupOf`, those whose old or new
 * test resolves to the same test as `groupOf` (its whole rename history).
 */
export async function listAliases(
  db: Queryable,
  filter: { undone: boolean; group?: readonly number[] },
): Promise<AliasRow[]> {
  const { rows } = await db.query<AliasRow>(
    `SELECT ${ALIAS_COLUMNS} ${ALIAS_FROM}
     WHERE ($1 OR a.undone_at IS NULL)
       AND ($2::bigint[] IS NULL OR a.test_id = ANY($2) OR a.canonical_id = ANY($2))
     ORDER BY a.id DESC LIMIT 500`,
    [filter.undone, filter.group ?? null],
  );
  return rows;
}
