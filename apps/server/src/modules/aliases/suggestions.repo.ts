import type { Queryable } from "./aliases.repo.js";

/** test_alias_suggestions (migration 0155): renames found at ingest, waiting for a person. */

export interface SuggestionRow {
  id: number;
  test_id: number;
  test_title: string;
  test_file: string | null;
  canonical_id: number;
  canonical_title: string;
  canonical_file: string | null;
  run_key: string;
  created_at: Date;
  decision: "confirmed" | "dismissed" | null;
  decided_by: string | null;
  decided_at: Date | null;
}

const SUGGESTION_SELECT = `SELECT s.id::float8 AS id, s.test_id::float8 AS test_id,
    o.title AS test_title, o.file AS test_file, s.canonical_id::float8 AS canonical_id,
    c.title AS canonical_title, c.file AS canonical_file, r.test_run_key AS run_key,
    s.created_at, s.decision, s.decided_by, s.decided_at
  FROM test_alias_suggestions s JOIN tests o ON o.id = s.test_id
  JOIN tests c ON c.id = s.canonical_id JOIN runs r ON r.id = s.run_id`;

/** Open suggestions (or every one with `all`), newest first. */
export async function listSuggestions(db: Queryable, all: boolean): Promise<SuggestionRow[]> {
  const { rows } = await db.query<SuggestionRow>(
    `${SUGGESTION_SELECT} WHERE ($1 OR s.decision IS NULL) ORDER BY s.id DESC LIMIT 500`,
    [all],
  );
  return rows;
}

export async function findSuggestion(db: Queryable, id: number): Promise<SuggestionRow | null> {
  const { rows } = await db.query<SuggestionRow>(`${SUGGESTION_SELECT} WHERE s.id = $1`, [id]);
  return rows[0] ?? null;
}

export async function decideSuggestion(
  db: Queryable,
  id: number,
  decision: "confirmed" | "dismissed" | null,
  by: string | null,
): Promise<void> {
  await db.query(
    `UPDATE test_alias_suggestions
     SET decision = $2, decided_by = $3, decided_at = CASE WHEN $2::text IS NULL THEN NULL ELSE now() END
     WHERE id = $1`,
    [id, decision, by],
  );
}
