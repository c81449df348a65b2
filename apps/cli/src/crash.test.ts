import { readFileSync } from "node:fs";
import { rm } from "node:fs/promises";
import http from "node:http";
import path from "node:path";
import FormData from "form-data";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeDataDir, startE2eServer, type E2eServer } from "../../../e2e/support/server.js";

// A crash of the server in the middle of an upload, then the client's retry: every result must be
// stored exactly once (the upload is one transaction; a retry with its Idempotency-Key is safe).
const TOKEN = "crash-test-ingest-token-0123456789abcdef";
const TESTS = 20_000;
let dataDir: string;
let server: E2eServer | undefined;
let report: string;

function junit(count: number): string {
  const cases = Array.from({ length: count }, (_, i) =>
    i % 10 === 0
      ? `<testcase classname="suite.s${i % 50}" name="test ${i}" time="0.01"><failure message="boom ${i}">stack ${i}</failure></testcase>`
      : `<testcase classname="suite.s${i % 50}" name="test ${i}" time="0.01"/>`,
  );
  return `<?xml version="1.0"?><testsuites><testsuite name="big">${cases.join("")}</testsuite></testsuites>`;
}

/** Posts the report; resolves with the status, or "dropped" when the connection dies. */
function post(url: string, key: string, throttle = false): Promise<number | "dropped"> {
  const form = new FormData();
  form.append("run_key", "crash-run-1");
  form.append("file", Buffer.from(report), { filename: "big.xml" });
  const body = form.getBuffer();
  return new Promise((resolve) => {
    const request = http.request(`${url}/v1/ingest/reports`, {
      method: "POST",
      headers: {
        ...form.getHeaders(),
        authorization: `Bearer ${TOKEN}`,
        "idempotency-key": key,
        "content-length": body.length,
      },
    });
    request.on("response", (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    request.on("error", () => resolve("dropped"));
    if (!throttle) return request.end(body);
    // Half the body now, the rest never: the server is killed while it is still receiving.
    request.write(body.subarray(0, body.length / 2));
  });
}

async function countResults(): Promise<{ runs: number; results: number }> {
  // The server's embedded cluster: read its port and password from the data folder.
  const pid = readFileSync(path.join(dataDir, "postgres", "pg", "postmaster.pid"), "utf8").split(
    "\n",
  );
  const password = readFileSync(path.join(dataDir, "postgres", "postgres-password"), "utf8").trim();
  const client = new pg.Client({
    host: "127.0.0.1",
    port: Number(pid[3]),
    user: "assay",
    password,
    database: "assay",
  });
  await client.connect();
  try {
    const { rows } = await client.query(
      "SELECT (SELECT count(*) FROM runs)::int AS runs, (SELECT count(*) FROM results)::int AS results",
    );
    return rows[0];
  } finally {
    await client.end();
  }
}

beforeAll(async () => {
  dataDir = await makeDataDir();
  report = junit(TESTS);
});
afterAll(async () => {
  await server?.stop();
  // Its own data folder (a PostgreSQL cluster, ~75 MB), which the server's stop() leaves to it.
  await rm(dataDir, { recursive: true, force: true });
});

describe("a crash during an upload", () => {
  it("loses nothing and duplicates nothing when the client retries after a kill -9", async () => {
    server = await startE2eServer({ ASSAY_INGEST_TOKEN: TOKEN }, { dataDir });
    const pending = post(server.url, "retry-key-1", true);
    await new Promise((r) => setTimeout(r, 300));
    await server.kill();
    expect(await pending).toBe("dropped");

    server = await startE2eServer({ ASSAY_INGEST_TOKEN: TOKEN }, { dataDir });
    expect(await countResults()).toEqual({ runs: 0, results: 0 });

    // Killed while storing: the answer may or may not have been committed; the retry decides.
    const second = post(server.url, "retry-key-2");
    await new Promise((r) => setTimeout(r, 400));
    await server.kill();
    await second;

    server = await startE2eServer({ ASSAY_INGEST_TOKEN: TOKEN }, { dataDir });
    expect([200, 201]).toContain(await post(server.url, "retry-key-2"));
    expect(await countResults()).toEqual({ runs: 1, results: TESTS });
  });
});
