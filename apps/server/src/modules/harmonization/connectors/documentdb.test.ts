import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDocumentDbFake, type DocumentDbFake } from "../../../../test/documentdb-fake.js";
import { DocumentDbConnector } from "./documentdb.js";

/**
 * The DocumentDB connector through the official driver, against a fake speaking the wire
 * protocol (test/documentdb-fake.ts): the connector's plumbing, not DocumentDB's semantics.
 */

let fake: DocumentDbFake;

const connector = (options: { url?: string; timeoutMs?: number } = {}) =>
  new DocumentDbConnector({
    url: options.url ?? fake.url(),
    database: "nextgen",
    timeoutMs: options.timeoutMs ?? 5_000,
    maxConnections: 2,
  });

beforeAll(async () => {
  fake = await startDocumentDbFake({
    collections: { patient: 500, observation: 1_600 },
    silent: ["slow"],
    dropping: ["dropping"],
  });
});
afterAll(async () => {
  await fake?.close();
});

describe("DocumentDB connector", () => {
  it("counts collections with countDocuments over the wire (wire version 7, as DocumentDB 4.0)", async () => {
    const docdb = connector();
    try {
      expect(await docdb.count("patient")).toBe(500);
      expect(await docdb.count("observation")).toBe(1_600);
      expect(fake.commands).toContain("aggregate");
    } finally {
      await docdb.close();
    }
  });

  it("counts a missing collection as 0, as DocumentDB answers", async () => {
    const docdb = connector();
    try {
      expect(await docdb.count("no_such_collection")).toBe(0);
    } finally {
      await docdb.close();
    }
  });

  it("fails wrong credentials without showing the password", async () => {
    const docdb = connector({ url: fake.url("assay:wrong-secret"), timeoutMs: 2_000 });
    try {
      const error = await docdb.count("patient").then(
        () => undefined,
        (e: unknown) => e as Error,
      );
      expect(error?.message).toMatch(/Authentication failed/);
      expect(error?.message).not.toContain("wrong-secret");
    } finally {
      await docdb.close();
    }
  });

  it("stops at the source's timeout when a count is never answered", async () => {
    const docdb = connector({ timeoutMs: 500 });
    try {
      const started = Date.now();
      await expect(docdb.count("slow")).rejects.toThrow(/timed out|timeout/i);
      expect(Date.now() - started).toBeLessThan(4_000);
    } finally {
      await docdb.close();
    }
  });

  it("fails a count whose connection drops, then counts again", async () => {
    const docdb = connector();
    try {
      await expect(docdb.count("dropping")).rejects.toThrow(/closed|connection/i);
      expect(await docdb.count("patient")).toBe(500);
    } finally {
      await docdb.close();
    }
  });
});
