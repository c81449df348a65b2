import { readFileSync } from "node:fs";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import FormData from "form-data";
import type pg from "pg";
import { FIXTURES_DIR } from "../src/modules/ingest/parsers/test-files.js";
import { factOf } from "../src/db/results-sql.js";

export const TEST_INGEST_TOKEN = "test-ingest-token-0123456789abcdef";

/** The smallest valid PNG: what a reporter's screenshot looks like on the wire. */
export const TINY_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

export interface UploadPart {
  /** File name as the client sends it. */
  name: string;
  content: string | Buffer;
}

/** Attaches TINY_PNG to a result through the live API, as a reporter does after a step. */
export function attachPng(
  app: FastifyInstance,
  runKey: string,
  testRunTestId: string,
  fields: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append("file", TINY_PNG, { filename: "screenshot.png", contentType: "image/png" });
  return app.inject({
    method: "POST",
    url: `/v1/ingest/runs/${encodeURIComponent(runKey)}/results/${encodeURIComponent(testRunTestId)}/attachments`,
    headers: { authorization: `Bearer ${TEST_INGEST_TOKEN}`, ...form.getHeaders() },
    payload: form.getBuffer(),
  });
}

/** A fixture file as an upload part, named by its path under the format's folder. */
export function fixturePart(format: string, name: string, as = name): UploadPart {
  return { name: as, content: readFileSync(`${FIXTURES_DIR}${format}/${name}`) };
}

/** POST /v1/ingest/reports as `assay upload` sends it: fields, then files. */
export async function upload(
  app: FastifyInstance,
  parts: readonly UploadPart[],
  fields: Record<string, string> = {},
  headers: Record<string, string> = { authorization: `Bearer ${TEST_INGEST_TOKEN}` },
): Promise<LightMyRequestResponse> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  for (const part of parts) form.append("file", part.content, { filename: part.name });
  return app.inject({
    method: "POST",
    url: "/v1/ingest/reports",
    headers: { ...form.getHeaders(), ...headers },
    payload: form.getBuffer(),
  });
}

/** Row counts of every table an upload writes, to assert that a refused upload stored nothing. */
export async function storedCounts(pool: pg.Pool): Promise<Record<string, number>> {
  const tables = [
    "runs",
    "results",
    "attachments",
    "api_requests",
    "load_stats",
    "tests",
    "idempotency_keys",
  ];
  const counts: Record<string, number> = {};
  for (const table of tables) {
    const { rows } = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table}`);
    counts[table] = rows[0]!.n;
  }
  return counts;
}

/**
 * SQL: the site, branch, commit and executor of results aliased `r`, their own or their tuple's
 * in result_facts (migration 0222), under the columns' names.
 */
export const RESULT_FACTS_SQL = (["nora_site", "branch", "commit_hash", "executor"] as const)
  .map((column) => `${factOf("r", column)} AS ${column}`)
  .join(", ");
