import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestApp } from "../../test/build-test-app.js";
import { createTestDatabase, type TestDatabase } from "../../test/test-database.js";
import { loggedUrl } from "../logger.js";

/** Issue 33: HSTS was sent over plain HTTP, and the sign-in code reached the request log. */

let database: TestDatabase;
let plain: TestApp;
let behindTls: TestApp;

beforeAll(async () => {
  database = await createTestDatabase();
  plain = await buildTestApp(database.db, { env: { ASSAY_PUBLIC_URL: "http://assay.test" } });
  behindTls = await buildTestApp(database.db, {
    env: { ASSAY_PUBLIC_URL: "https://assay.example.com" },
  });
});

afterAll(async () => {
  await Promise.all([plain?.app.close(), behindTls?.app.close()]);
  await database?.drop();
});

describe("Strict-Transport-Security", () => {
  it("is not sent over plain HTTP", async () => {
    for (const url of ["/healthz", "/v1/catalog", "/auth/login"]) {
      const res = await plain.app.inject({ method: "GET", url });
      expect(res.headers["strict-transport-security"], url).toBeUndefined();
    }
  });

  it("is sent when Assay is reached over HTTPS", async () => {
    const res = await behindTls.app.inject({ method: "GET", url: "/v1/catalog" });
    expect(res.headers["strict-transport-security"]).toBe("max-age=31536000; includeSubDomains");
  });
});

describe("the request log", () => {
  it("never holds the sign-in callback's code or state", async () => {
    await plain.app.inject({
      method: "GET",
      url: "/auth/callback?code=SIGN-IN-CODE-5f2a&state=STATE-VALUE-9c1d",
    });
    const lines = plain.logs.map((line) => JSON.stringify(line));
    expect(lines.some((line) => line.includes("/auth/callback?[redacted]"))).toBe(true);
    expect(lines.filter((line) => /SIGN-IN-CODE-5f2a|STATE-VALUE-9c1d/.test(line))).toEqual([]);
  });

  it("keeps every other query as it was", () => {
    expect(loggedUrl("/v1/test-runs?page=2")).toBe("/v1/test-runs?page=2");
    expect(loggedUrl("/auth/callback")).toBe("/auth/callback");
    expect(loggedUrl("/auth/callback?code=x")).toBe("/auth/callback?[redacted]");
    // A data-harmonization host's one-time sign-in code is as good as a session while it lives.
    expect(loggedUrl("/auth/handoff?code=x")).toBe("/auth/handoff?[redacted]");
  });
});
