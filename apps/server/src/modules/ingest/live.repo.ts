import type pg from "pg";

/** The result a live reporter attaches a file to: by run key and the run's test id. */
export async function findResult(
  pool: pg.Pool,
  key: string,
  testRunTestId: string,
): Promise<{ id: string; run_id: string } | undefined> {
  const { rows } = await pool.query<{ id: string; run_id: string }>(
    `SELECT r.id, r.run_id FROM results r JOIN runs ON runs.id = r.run_id
     WHERE runs.test_run_key = $1 AND r.test_run_test_id = $2`,
    [key, testRunTestId],
  );
  return rows[0];
}

export interface AttachmentRow {
  resultId: string;
  name: string;
  contentType: string;
  description: string | null;
  stepIndex: number | null;
  takenAt: string | null;
  objectKey: string;
  size: number;
}

/** Stores an attachment's row; returns its id. */
export async function insertAttachment(
  client: pg.PoolClient,
  attachment: AttachmentRow,
): Promise<number> {
  const { rows } = await client.query<{ id: string }>(
    `INSERT INTO attachments (result_id, name, content_type, description, step_index, taken_at, object_key, size)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
    [
      attachment.resultId,
      attachment.name,
      attachment.contentType,
      attachment.description,
      attachment.stepIndex,
      attachment.takenAt,
      attachment.objectKey,
      attachment.size,
    ],
  );
  return Number(rows[0]!.id);
}

/**
 * Makes a new version of the run's row without changing it, so that kept run details
 * (RunDetailCache, which compares the row's version) show the new attachment.
 */
export async function touchRun(client: pg.PoolClient, runId: string): Promise<void> {
  await client.query("UPDATE runs SET state = state WHERE id = $1", [runId]);
}
