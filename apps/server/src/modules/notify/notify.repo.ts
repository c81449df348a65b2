import type pg from "pg";

/**
 * The notify module's SQL: its rules and outbox (owned here), and the reads of a run it
 * reports on (runs and results, owned by ingestion; read only).
 */

type Queryable = Pick<pg.Pool | pg.PoolClient, "query">;

export interface RuleRow {
  id: string;
  name: string;
  channel: "slack" | "teams" | "email" | "webhook";
  when_to: "always" | "failure" | "recovery" | "new_failures";
  filters: Record<string, string>;
  email: Record<string, unknown> | null;
  target: string | null;
  secret: Buffer | null;
  is_active: boolean;
  source: "screen" | "config";
  updated_by: string | null;
  updated_at: Date;
}

export interface RuleWrite {
  name: string;
  channel: RuleRow["channel"];
  when_to: RuleRow["when_to"];
  filters: object;
  email: object | null;
  target: string | null;
  is_active: boolean;
  updated_by: string;
}

const RULE_COLUMNS =
  "id, name, channel, when_to, filters, email, target, secret, is_active, source, updated_by, updated_at";

export async function listRules(db: Queryable): Promise<RuleRow[]> {
  const { rows } = await db.query<RuleRow>(
    `SELECT ${RULE_COLUMNS} FROM notify_rules WHERE archived_at IS NULL ORDER BY name, id`,
  );
  return rows;
}

export async function findRule(db: Queryable, id: number): Promise<RuleRow | undefined> {
  const { rows } = await db.query<RuleRow>(
    `SELECT ${RULE_COLUMNS} FROM notify_rules WHERE id = $1 AND archived_at IS NULL`,
    [id],
  );
  return rows[0];
}

export async function insertRule(
  db: Queryable,
  rule: RuleWrite,
  source: RuleRow["source"] = "screen",
): Promise<number> {
  const { rows } = await db.query<{ id: string }>(
    `INSERT INTO notify_rules (name, channel, when_to, filters, email, target, is_active, updated_by, source)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING id`,
    [
      rule.name,
      rule.channel,
      rule.when_to,
      JSON.stringify(rule.filters),
      rule.email && JSON.stringify(rule.email),
      rule.target,
      rule.is_active,
      rule.updated_by,
      source,
    ],
  );
  return Number(rows[0]!.id);
}

export async function updateRule(db: Queryable, id: number, rule: RuleWrite): Promise<void> {
  await db.query(
    `UPDATE notify_rules SET name = $2, channel = $3, when_to = $4, filters = $5, email = $6,
       target = $7, is_active = $8, updated_by = $9, updated_at = now(), archived_at = NULL
     WHERE id = $1`,
    [
      id,
      rule.name,
      rule.channel,
      rule.when_to,
      JSON.stringify(rule.filters),
      rule.email && JSON.stringify(rule.email),
      rule.target,
      rule.is_active,
      rule.updated_by,
    ],
  );
}

export async function setSecret(db: Queryable, id: number, sealed: Buffer | null): Promise<void> {
  await db.query("UPDATE notify_rules SET secret = $2 WHERE id = $1", [id, sealed]);
}

/** Archived, not deleted: its deliveries stay as the history of what was sent. */
export async function archiveRule(db: Queryable, id: number, by: string): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE notify_rules SET archived_at = now(), is_active = false, updated_by = $2, updated_at = now()
     WHERE id = $1 AND archived_at IS NULL`,
    [id, by],
  );
  return (rowCount ?? 0) > 0;
}

export async function findConfigRule(db: Queryable, name: string): Promise<RuleRow | undefined> {
  const { rows } = await db.query<RuleRow>(
    `SELECT ${RULE_COLUMNS} FROM notify_rules WHERE source = 'config' AND name = $1`,
    [name],
  );
  return rows[0];
}

/** Config rules no longer in assay.config.yaml stop sending (kept, as history). */
export async function archiveConfigRulesExcept(db: Queryable, names: string[]): Promise<void> {
  await db.query(
    `UPDATE notify_rules SET archived_at = now(), is_active = false
     WHERE source = 'config' AND archived_at IS NULL AND NOT (name = ANY($1))`,
    [names],
  );
}

export interface DeliveryRow {
  rule_id: string;
  run_key: string;
  run_name: string;
  state: "pending" | "sent" | "failed" | "skipped";
  attempts: number;
  message: string | null;
  updated_at: Date;
}

/** The latest `limit` deliveries of each rule. */
export async function latestDeliveries(db: Queryable, limit: number): Promise<DeliveryRow[]> {
  const { rows } = await db.query<DeliveryRow>(
    `SELECT r.id AS rule_id, d.run_key, d.run_name, d.state, d.attempts, d.message, d.updated_at
     FROM notify_rules r
     CROSS JOIN LATERAL (
       SELECT runs.test_run_key AS run_key, runs.test_run_name AS run_name, o.state, o.attempts,
              o.message, o.updated_at
       FROM notify_outbox o JOIN runs ON runs.id = o.run_id
       WHERE o.rule_id = r.id ORDER BY o.id DESC LIMIT $1
     ) d
     WHERE r.archived_at IS NULL`,
    [limit],
  );
  return rows;
}

/**
 * Queues a delivery of the run for each active rule whose filters match it, once per rule and
 * run, due `settleSeconds` from now. A later upload into the run (another shard) moves a
 * delivery not yet attempted to `settleSeconds` after itself, so the message reads the whole
 * run's counts. A run still open (opened by POST /v1/ingest/runs, its shards uploading into it)
 * is not queued: its finish is. Runs in the caller's transaction, so a run committed is a run
 * queued; the wait counts from this statement (clock_timestamp), not from the transaction's
 * start, which a large upload's parse may have left well behind. Returns how many were queued or moved.
 */
export async function enqueueRun(
  db: Queryable,
  runId: number,
  settleSeconds: number,
): Promise<number> {
  const { rowCount } = await db.query(
    `INSERT INTO notify_outbox (rule_id, run_id, next_at)
     SELECT r.id, runs.id, clock_timestamp() + make_interval(secs => $2)
     FROM notify_rules r, runs
     WHERE runs.id = $1 AND runs.state = 'finished' AND r.is_active AND r.archived_at IS NULL
       AND (r.filters->>'family' IS NULL OR r.filters->>'family' = runs.family)
       AND (r.filters->>'platform' IS NULL
            OR (r.filters->>'platform' = 'nextGen') = runs.is_next_gen)
       AND (r.filters->>'branch' IS NULL OR r.filters->>'branch' = runs.branch)
       AND (r.filters->>'site' IS NULL OR r.filters->>'site' = runs.nora_site)
       AND (r.filters->>'environment' IS NULL OR r.filters->>'environment' = runs.env)
       AND (r.filters->>'name' IS NULL
            OR strpos(lower(runs.test_run_name), lower(r.filters->>'name')) > 0)
     ON CONFLICT (rule_id, run_id) DO UPDATE SET next_at = excluded.next_at
       WHERE notify_outbox.state = 'pending' AND notify_outbox.attempts = 0`,
    [runId, settleSeconds],
  );
  return rowCount ?? 0;
}

export interface ClaimedRow {
  id: string;
  rule_id: string;
  run_id: string;
  attempts: number;
}

/**
 * Takes up to `limit` due deliveries and leases them for `leaseSeconds` (their next_at moves
 * on), so another worker or a later sweep retries one whose worker died mid-delivery.
 */
export async function claimDue(
  db: Queryable,
  limit: number,
  leaseSeconds: number,
): Promise<ClaimedRow[]> {
  const { rows } = await db.query<ClaimedRow>(
    `UPDATE notify_outbox o SET next_at = now() + make_interval(secs => $2), attempts = o.attempts + 1
     WHERE o.id IN (
       SELECT id FROM notify_outbox WHERE state = 'pending' AND next_at <= now()
       ORDER BY next_at LIMIT $1 FOR UPDATE SKIP LOCKED
     )
     RETURNING o.id, o.rule_id, o.run_id, o.attempts`,
    [limit, leaseSeconds],
  );
  return rows;
}

export async function settle(
  db: Queryable,
  id: string,
  state: DeliveryRow["state"],
  message: string | null,
  retryInSeconds?: number,
): Promise<void> {
  await db.query(
    `UPDATE notify_outbox SET state = $2, message = $3, updated_at = now(),
       next_at = CASE WHEN $4::double precision IS NULL THEN next_at
                      ELSE now() + make_interval(secs => $4::double precision) END
     WHERE id = $1`,
    [id, state, message, retryInSeconds ?? null],
  );
}

/** Seconds until the earliest pending delivery is due, or undefined when none is pending. */
export async function secondsToNextDue(db: Queryable): Promise<number | undefined> {
  const { rows } = await db.query<{ seconds: number | null }>(
    `SELECT extract(epoch FROM min(next_at) - now())::float8 AS seconds
     FROM notify_outbox WHERE state = 'pending'`,
  );
  const seconds = rows[0]?.seconds;
  return seconds === null || seconds === undefined ? undefined : Math.max(0, seconds);
}

export interface RunFacts {
  id: string;
  key: string;
  name: string;
  family: "frontend" | "backend" | "load";
  branch: string | null;
  site: string | null;
  env: string | null;
  is_next_gen: boolean;
  total: number;
  passed: number;
  failed: number;
  skipped: number;
  flaky: number;
  duration_ms: number;
  started_at: Date | null;
  finished_at: Date | null;
}

export async function runFacts(db: Queryable, runId: number): Promise<RunFacts | undefined> {
  const { rows } = await db.query<RunFacts>(
    `SELECT id, test_run_key AS key, test_run_name AS name, family, branch, nora_site AS site, env,
            is_next_gen, total, passed, failed, pending AS skipped, flaky, duration_ms, started_at,
            finished_at
     FROM runs WHERE id = $1`,
    [runId],
  );
  return rows[0];
}

/**
 * Whether the run before this one that the same rule matched (its latest earlier delivery) had
 * failed tests: what "recovery" compares with. undefined when the rule saw no earlier run.
 */
export async function previousRunFailed(
  db: Queryable,
  ruleId: number,
  runId: number,
): Promise<boolean | undefined> {
  const { rows } = await db.query<{ failed: number }>(
    `SELECT runs.failed FROM notify_outbox o JOIN runs ON runs.id = o.run_id
     WHERE o.rule_id = $1 AND o.run_id < $2 ORDER BY o.run_id DESC LIMIT 1`,
    [ruleId, runId],
  );
  return rows[0] ? rows[0].failed > 0 : undefined;
}

/** The titles of tests (the tests a failure group lists), by test id. */
export async function testNames(
  db: Queryable,
  testIds: readonly number[],
): Promise<Map<number, string>> {
  if (testIds.length === 0) return new Map();
  const { rows } = await db.query<{ id: number; name: string }>(
    "SELECT id::float8 AS id, title AS name FROM tests WHERE id = ANY($1::bigint[])",
    [testIds],
  );
  return new Map(rows.map((row) => [row.id, row.name]));
}
