import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp } from "../../../../test/build-test-app.js";
import { createTestDatabase, type TestDatabase } from "../../../../test/test-database.js";
import {
  storedCounts,
  TEST_INGEST_TOKEN,
  upload,
  type UploadPart,
} from "../../../../test/upload.js";

let database: TestDatabase;
let app: FastifyInstance;
/** The same server with ASSAY_MAX_UPLOAD_FILES=5, so that going over the limit stays small. */
let strict: FastifyInstance;

beforeAll(async () => {
  database = await createTestDatabase();
  ({ app } = await buildTestApp(database.db, { env: { ASSAY_INGEST_TOKEN: TEST_INGEST_TOKEN } }));
  ({ app: strict } = await buildTestApp(database.db, {
    env: { ASSAY_INGEST_TOKEN: TEST_INGEST_TOKEN, ASSAY_MAX_UPLOAD_FILES: "5" },
  }));
});
afterAll(async () => {
  await app.close();
  await strict.close();
  await database.drop();
});

const result = (uuid: string): UploadPart => ({
  name: `allure-results/${uuid}-result.json`,
  content: JSON.stringify({
    uuid,
    historyId: `history-${uuid}`,
    name: `test ${uuid}`,
    status: "passed",
    start: 1_700_000_000_000,
    stop: 1_700_000_000_500,
  }),
});
const container = (uuid: string, children: string[]): UploadPart => ({
  name: `allure-results/${uuid}-container.json`,
  content: JSON.stringify({
    uuid,
    children,
    befores: [{ name: "open the shop", status: "passed" }],
  }),
});
const attachments = (count: number): UploadPart[] =>
  Array.from({ length: count }, (_, i) => ({
    name: `allure-results/${i}-attachment.txt`,
    content: "x",
  }));

/**
 * upload() with a body built in one piece: form-data's getBuffer() copies the whole body once
 * per part, which takes seconds for 10,000 parts.
 */
function uploadMany(target: FastifyInstance, parts: readonly UploadPart[], format: string) {
  const boundary = "assay-test-boundary-7d1f";
  const head = (disposition: string) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; ${disposition}\r\n\r\n`);
  const body: Buffer[] = [head('name="format"'), Buffer.from(`${format}\r\n`)];
  for (const part of parts) {
    body.push(head(`name="file"; filename="${part.name}"`), Buffer.from(part.content));
    body.push(Buffer.from("\r\n"));
  }
  body.push(Buffer.from(`--${boundary}--\r\n`));
  return target.inject({
    method: "POST",
    url: "/v1/ingest/reports",
    headers: {
      "content-type": `multipart/form-data; boundary=${boundary}`,
      authorization: `Bearer ${TEST_INGEST_TOKEN}`,
    },
    payload: Buffer.concat(body),
  });
}

describe("the number of files in one upload", () => {
  it("accepts an allure-results folder of more than 10,000 files (the former limit) at once", async () => {
    const parts = [result("a"), result("b"), container("c", ["a", "b"]), ...attachments(10_000)];
    const res = await uploadMany(app, parts, "allure");
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ formats: ["allure"], inserted: 2 });
  });

  it("refuses more files than ASSAY_MAX_UPLOAD_FILES with 413, naming the limit and what to do", async () => {
    const five = [result("d"), result("e"), ...attachments(3)];
    expect((await upload(strict, five, { format: "allure" })).statusCode).toBe(201);
    const before = await storedCounts(database.db.pool);

    const res = await upload(strict, [...five, result("f")], { format: "allure" });
    expect(res.statusCode).toBe(413);
    expect(res.json().error).toEqual({
      code: "payload_too_large",
      message:
        "The upload has more than 5 files, the limit per upload (ASSAY_MAX_UPLOAD_FILES). " +
        "Send the folder as one zip, or in several uploads into one run with the same run_key " +
        "(assay upload --run-key).",
    });
    expect(await storedCounts(database.db.pool)).toEqual(before);
  });
});
