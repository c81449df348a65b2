import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildBuildApp, insertBuildUser, RUNNER_ARGV } from "../../../test/build-apps.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";
import { isMetadataTarget } from "./target-hosts.js";

/** Issue 33: builds accepted a nora_site or load host such as https://169.254.169.254/. */

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
});

const local = `{ kind: local, command: ${JSON.stringify(RUNNER_ARGV)}, requires: [] }`;
const builds = (extra: string) =>
  `builds:\n  executors: { frontend: ${local}, china: ${local}, backend: ${local}, load: ${local} }\n  rateLimit: { builds: 50, perMinutes: 1 }\n${extra}`;
const count = async () =>
  Number((await database.db.pool.query("SELECT count(*) AS n FROM builds")).rows[0].n);

describe("isMetadataTarget", () => {
  it.each([
    "169.254.169.254",
    "https://169.254.169.254/",
    "https://169.254.169.254:443/latest/meta-data",
    "169.254.170.2",
    "https://2852039166/",
    "https://0xa9fea9fe/",
    "https://0251.0376.0251.0376/",
    "https://169.254.43518/",
    "https://[::ffff:169.254.169.254]/",
    "https://[fe80::1]/",
    "https://[fd00:ec2::254]/",
    "100.100.100.200",
    "metadata.google.internal",
    "https://METADATA.google.internal./computeMetadata/v1/",
    "metadata",
    "instance-data.ec2.internal",
  ])("refuses %s", (value) => {
    expect(isMetadataTarget(value)).toBe(true);
  });

  it.each([
    "dev1.example.com",
    "https://stage.example.com/app",
    "10.0.0.5",
    "192.168.1.20:8443",
    "https://[fd00::5]/",
    "metadata.example.com",
  ])("allows %s", (value) => {
    expect(isMetadataTarget(value)).toBe(false);
  });
});

describe("builds targeting metadata addresses", () => {
  it("are refused with 400 in every list and record nothing, unless configured", async () => {
    const user = await insertBuildUser(database, "targets@example.com");
    const app = await buildBuildApp(database, { user, builds: builds(""), startWorkers: false });
    const before = await count();
    try {
      for (const [url, payload, field] of [
        ["/v1/builds", { nora_site: "https://169.254.169.254/" }, "nora_site"],
        ["/v1/china/builds", { nora_site: "metadata.google.internal" }, "nora_site"],
        ["/v1/api/builds", { env: "https://169.254.169.254/", branch: "master" }, "env"],
        [
          "/v1/load/builds",
          {
            env: "other",
            host: "https://169.254.169.254/",
            branch: "master",
            testFile: "a.py",
            runTime: "5m",
            users: 2,
            spawnRate: 1,
            loadRegion: "us-west-2",
          },
          "host",
        ],
      ] as const) {
        const res = await app.app.inject({ method: "POST", url, payload });
        expect(res.statusCode, `${url} ${res.body}`).toBe(400);
        expect(res.json().error.message).toContain(`${field}: `);
        expect(res.json().error.message).toContain("link-local or cloud metadata address");
      }
      expect(await count()).toBe(before);
      const fine = await app.app.inject({
        method: "POST",
        url: "/v1/builds",
        payload: { nora_site: "10.0.0.5" },
      });
      expect(fine.statusCode, fine.body).toBe(201);
    } finally {
      await app.close();
    }
    const allowing = await buildBuildApp(database, {
      user,
      builds: builds("  allowLinkLocalTargets: true\n"),
      startWorkers: false,
    });
    try {
      const res = await allowing.app.inject({
        method: "POST",
        url: "/v1/builds",
        payload: { nora_site: "169.254.169.254" },
      });
      expect(res.statusCode, res.body).toBe(201);
    } finally {
      await allowing.close();
    }
  });
});
