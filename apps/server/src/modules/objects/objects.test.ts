import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp, type TestApp } from "../../../test/build-test-app.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";
import { newObjectKey } from "../../storage/index.js";

let database: TestDatabase;
let testApp: TestApp;
let app: FastifyInstance;

beforeAll(async () => {
  database = await createTestDatabase();
  testApp = await buildTestApp(database.db);
  app = testApp.app;
});
afterAll(async () => {
  await app.close();
  await database.drop();
});

async function stored(body: string, contentType: string, extension: string): Promise<string> {
  const key = newObjectKey("attachments", extension);
  await testApp.objects.put(key, Buffer.from(body), { contentType });
  return key;
}

/**
 * A request over a real socket, with the path sent byte for byte: app.inject (like a browser)
 * resolves `..` and `%2e%2e` before routing, but curl --path-as-is and attackers do not.
 */
async function rawGet(rawPath: string): Promise<{ status: number; body: string }> {
  const address = app.server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: "127.0.0.1", port: address.port, path: rawPath, method: "GET" },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on("error", reject);
    req.end();
  });
}

describe("GET /v1/objects/*", () => {
  it("streams an image with its type, length, validators and a long private cache", async () => {
    const key = await stored("png bytes", "image/png", "png");
    const res = await app.inject({ method: "GET", url: `/v1/objects/${key}` });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe("png bytes");
    expect(res.headers).toMatchObject({
      "content-type": "image/png",
      "content-length": "9",
      etag: '"847bee05ce221ee20516f48581e44313"',
      "cache-control": "private, max-age=31536000, immutable",
      "x-content-type-options": "nosniff",
    });
    expect(new Date(String(res.headers["last-modified"])).getTime()).toBeGreaterThan(0);
    expect(res.headers["content-disposition"]).toBeUndefined();
    expect(res.headers["content-security-policy"]).toContain("sandbox");
  });

  it("answers 304 with no body to a matching If-None-Match", async () => {
    const key = await stored("png bytes", "image/png", "png");
    const first = await app.inject({ method: "GET", url: `/v1/objects/${key}` });
    const etag = String(first.headers.etag);
    for (const ifNoneMatch of [etag, `W/${etag}`, `"other", ${etag}`, "*"]) {
      const res = await app.inject({
        method: "GET",
        url: `/v1/objects/${key}`,
        headers: { "if-none-match": ifNoneMatch },
      });
      expect(res.statusCode).toBe(304);
      expect(res.body).toBe("");
      expect(res.headers.etag).toBe(etag);
    }
    const stale = await app.inject({
      method: "GET",
      url: `/v1/objects/${key}`,
      headers: { "if-none-match": '"other"' },
    });
    expect(stale.statusCode).toBe(200);
  });

  it("answers HEAD with the headers only", async () => {
    const key = await stored("some text", "text/plain; charset=utf-8", "txt");
    const res = await app.inject({ method: "HEAD", url: `/v1/objects/${key}` });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe("");
    expect(res.headers["content-length"]).toBe("9");
    expect(res.headers["content-type"]).toBe("text/plain; charset=utf-8");
  });

  it("opens an HTML report in the browser, its scripts sandboxed away from Assay's origin", async () => {
    const key = await stored("<script>drawCharts()</script>", "text/html", "html");
    const res = await app.inject({ method: "GET", url: `/v1/objects/${key}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("text/html");
    expect(res.headers["content-disposition"]).toBe(`inline; filename="${key.split("/").at(-1)}"`);
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    const policy = String(res.headers["content-security-policy"]);
    const directives = policy.split(";").map((d) => d.trim());
    // Scripts run (the charts draw), but in an opaque origin: never allow-same-origin.
    expect(directives).toContain("sandbox allow-scripts");
    expect(policy).not.toMatch(/allow-same-origin|allow-forms|allow-top-navigation|allow-popups/);
    expect(directives).toContain("connect-src 'none'");
  });

  it("serves SVG and other active content as a download in a sandbox", async () => {
    const cases: [string, string, string][] = [
      ['<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>', "image/svg+xml", "svg"],
      ["<x/>", "application/xml", "xml"],
      ["%PDF-1.7", "application/pdf", "pdf"],
    ];
    for (const [body, contentType, extension] of cases) {
      const key = await stored(body, contentType, extension);
      const res = await app.inject({ method: "GET", url: `/v1/objects/${key}` });
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-type"]).toBe(contentType);
      expect(res.headers["content-disposition"]).toBe(
        `attachment; filename="${key.split("/").at(-1)}"`,
      );
      expect(res.headers["x-content-type-options"]).toBe("nosniff");
      expect(res.headers["content-security-policy"]).toMatch(/default-src 'none'.*sandbox/);
    }
  });

  it("shows plain text and JSON inline", async () => {
    for (const [contentType, extension] of [
      ["text/plain", "txt"],
      ["application/json", "json"],
    ] as const) {
      const key = await stored("{}", contentType, extension);
      const res = await app.inject({ method: "GET", url: `/v1/objects/${key}` });
      expect(res.headers["content-disposition"]).toBeUndefined();
    }
  });

  it("answers 404 in the JSON error format for a missing object", async () => {
    const res = await app.inject({
      method: "GET",
      url: "/v1/objects/attachments/2026/11/nope.png",
    });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      error: { code: "not_found", message: "No object with key attachments/2026/11/nope.png." },
    });
  });

  it.each([
    ["a leading slash", "/v1/objects//etc/passwd", "it starts with a slash"],
    ["an encoded slash", "/v1/objects/attachments%2F..%2Fsecret", "encoded traversal"],
    ["an encoded backslash", "/v1/objects/a%5C..%5Cb", "encoded traversal"],
    ["a double-encoded dot", "/v1/objects/%252e%252e/x", "encoded traversal"],
    ["a hidden metadata file", "/v1/objects/attachments/.x.png.meta.json", "starts with a dot"],
    ["a semicolon", "/v1/objects/..;/x", "starts with a dot"],
  ])("answers 400 for %s", async (_name, url, reason) => {
    const res = await app.inject({ method: "GET", url });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe("invalid_object_key");
    expect(res.json().error.message).toContain(reason);
  });

  it("answers 400 for an encoded NUL, refused for every route before this one", async () => {
    const res = await app.inject({ method: "GET", url: "/v1/objects/x.png%00.html" });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe("control_character");
  });

  it("answers 400 to '..' and '%2e%2e' sent as-is over a socket", async () => {
    await app.listen({ port: 0, host: "127.0.0.1" });
    const cases: [string, string][] = [
      ["/v1/objects/../../etc/passwd", "'..' segment"],
      ["/v1/objects/attachments/../../../etc/passwd", "'..' segment"],
      ["/v1/objects/%2e%2e/%2e%2e/etc/passwd", "encoded traversal"],
      ["/v1/objects/attachments/%2E%2E/x", "encoded traversal"],
      ["/v1/objects/..%2f..%2fetc%2fpasswd", "encoded traversal"],
    ];
    for (const [rawPath, reason] of cases) {
      const res = await rawGet(rawPath);
      expect(res.status, rawPath).toBe(400);
      expect(JSON.parse(res.body).error.message).toContain(reason);
    }
  });

  it("is listed in the OpenAPI document", async () => {
    const res = await app.inject({ method: "GET", url: "/docs/json" });
    expect(Object.keys(res.json().paths)).toContain("/v1/objects/{*}");
  });
});
