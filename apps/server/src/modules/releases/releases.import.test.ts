import type { ReleaseReport } from "@assay/core";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildTestApp } from "../../../test/build-test-app.js";
import { buildTagApps, type TagApps } from "../../../test/tag-apps.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";
import { recordFinishedBuilds } from "../builds/oq-builds.repo.js";
import { JiraFake } from "../integrations/fakes/jira-fake.js";

/**
 * Issue #22: teams without Jira give the Releases report its versions and incidents through the
 * requirements file's releases section, imported the way users import (POST
 * /v1/traceability/rms/import), on real PostgreSQL; Jira, when configured, still wins.
 */

let database: TestDatabase;
let apps: TagApps;
let withJira: FastifyInstance;
let jira: JiraFake;

const FILE = {
  requirements: [{ rms: "RMS-1", summary: "Sign in", bugs: [{ key: "BUG-1", status: "Open" }] }],
  releases: [
    {
      version: "2.0.0",
      incidents: [{ key: "INC-3", summary: "Slow export", status: "Open", closed: false }],
    },
    {
      version: "1.4.0",
      releasedAt: "2026-09-01",
      incidents: [
        { key: "INC-1", summary: "Crash on start", status: "Closed", closed: true },
        { key: "INC-2", status: "Investigating", closed: false },
      ],
    },
  ],
};

const importFile = (content: unknown, fileName = "nora-requirements.json") =>
  apps.user.inject({
    method: "POST",
    url: "/v1/traceability/rms/import",
    payload: { fileName, content: typeof content === "string" ? content : JSON.stringify(content) },
  });
const report = async (app: FastifyInstance) => {
  const res = await app.inject({ method: "GET", url: "/v1/release-detail?view=all" });
  return { status: res.statusCode, body: res.json() as ReleaseReport & { error?: never } };
};
const stored = async () =>
  (
    await database.db.pool.query<{ version: string; n: string }>(
      `SELECT r.version, count(i.key) AS n FROM imported_releases r
         LEFT JOIN imported_release_incidents i ON i.release_id = r.id
        GROUP BY r.version ORDER BY r.version`,
    )
  ).rows.map((r) => `${r.version}:${r.n}`);

beforeAll(async () => {
  database = await createTestDatabase();
  apps = await buildTagApps(database);
  jira = new JiraFake({ deployment: "cloud", email: "bot@example.com", token: "jira-token-ri" });
  jira.versions.set("NXL", [{ name: "9.0.0", released: true, releaseDate: "2026-10-01" }]);
  await jira.start();
  withJira = (
    await buildTestApp(database.db, {
      env: {
        ASSAY_JIRA_URL: jira.url,
        ASSAY_JIRA_EMAIL: "bot@example.com",
        ASSAY_JIRA_TOKEN: "jira-token-ri",
        ASSAY_JIRA_PROJECT: "NXL",
      },
      resolvePrincipal: async () => undefined,
    })
  ).app;
  const now = new Date("2026-11-20T10:00:00Z");
  await recordFinishedBuilds(database.db.kysely, [
    {
      family: "frontend",
      region: "US",
      executor_kind: "local",
      test_run_key: "oq-file-1",
      mode: "oq_test",
      test_run_name: "OQ",
      executor: "qa",
      source_version: "master",
      payload: JSON.stringify({ mode: "oq_test", jiraRelease: "1.4.0" }),
      started_by_email: "qa@example.com",
      started_by_name: "QA",
      build_status: "SUCCEEDED",
      current_phase: "COMPLETED",
      start_time: now,
      end_time: now,
      deadline: now,
    },
  ]);
});

afterAll(async () => {
  await Promise.all([apps?.close(), withJira?.close()]);
  await jira?.stop();
  await database?.drop();
});

describe("releases from an imported requirements file", () => {
  it("answers 503 naming both ways when there is neither Jira nor an imported releases section", async () => {
    const { status, body } = await report(apps.anonymous);
    expect(status).toBe(503);
    expect(body.error).toMatchObject({ message: expect.stringContaining("releases section") });
  });

  it("refuses a bad releases section with a 400 naming the release and field, changing nothing", async () => {
    const bad = structuredClone(FILE) as { releases: { incidents: Record<string, unknown>[] }[] };
    delete bad.releases[1]!.incidents[1]!.closed;
    const res = await importFile(bad);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe(
      "Release 2: incidents.1.closed: closed is true or false (is the incident closed?).",
    );
    const date = await importFile({ ...FILE, releases: [{ version: "1.0", releasedAt: "soon" }] });
    expect(date.json().error.message).toContain("Release 1: releasedAt:");
    const twice = await importFile({ ...FILE, releases: [{ version: "1.0" }, { version: "1.0" }] });
    expect(twice.json().error.message).toContain("version 1.0 appears twice");
    expect(await stored()).toEqual([]);
    const imports = await database.db.pool.query("SELECT 1 FROM requirement_imports");
    expect(imports.rowCount).toBe(0);
  });

  it("stores the releases and incidents of an import with its requirements", async () => {
    const res = await importFile(FILE);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ requirements: 1, bugs: 1, releases: 2 });
    expect(await stored()).toEqual(["1.4.0:2", "2.0.0:1"]);
  });

  it("reports the file's releases and incidents without Jira, saying which file", async () => {
    const { status, body } = await report(apps.anonymous);
    expect(status).toBe(200);
    expect(body.rows).toEqual([
      expect.objectContaining({
        releaseVersion: "1.4.0",
        totalOQ: 1,
        incidentCount: 2,
        incidentClose: 1,
        incidentOpen: 1,
        released: true,
        releaseDate: "2026-09-01",
      }),
      expect.objectContaining({
        releaseVersion: "2.0.0",
        totalOQ: 0,
        incidentCount: 1,
        incidentOpen: 1,
        released: false,
        releaseDate: null,
      }),
    ]);
    const file = expect.stringMatching(
      /imported file nora-requirements\.json, \d{4}-\d\d-\d\dT[\d:.]+Z/,
    );
    expect(body.sources.releaseVersions).toEqual([{ kind: "file", demo: false, detail: file }]);
    expect(body.sources.incidents).toEqual([{ kind: "file", demo: false, detail: file }]);
    expect(body.sources.totalOQ[0]?.kind).toBe("builds");
  });

  it("keeps the imported releases when a later file has no releases section", async () => {
    const res = await importFile("rms,summary\nRMS-1,Sign in\n", "later.csv");
    expect(res.statusCode).toBe(200);
    expect(res.json()).not.toHaveProperty("releases");
    const { body } = await report(apps.anonymous);
    expect(body.rows.map((r) => r.releaseVersion)).toEqual(["1.4.0", "2.0.0"]);
    expect(body.sources.releaseVersions[0]?.detail).toContain("nora-requirements.json");
  });

  it("uses Jira, not the file, when Jira is configured", async () => {
    const { status, body } = await report(withJira);
    expect(status).toBe(200);
    expect(body.sources.releaseVersions[0]).toMatchObject({ kind: "jira" });
    expect(body.sources.incidents[0]).toMatchObject({ kind: "jira" });
    expect(body.rows.map((r) => r.releaseVersion)).toEqual(["1.4.0", "9.0.0"]);
  });
});
