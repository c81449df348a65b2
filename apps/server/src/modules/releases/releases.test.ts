import type { ReleaseReport } from "@assay/core";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { buildTestApp, type TestApp } from "../../../test/build-test-app.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";
import { recordFinishedBuilds } from "../builds/oq-builds.repo.js";
import type { NewBuild } from "../builds/builds.repo.js";
import { JiraFake, type FakeIssue } from "../integrations/fakes/jira-fake.js";
import { SpiraFake } from "../integrations/fakes/spira-fake.js";
import { countIncidents, jqlString } from "./incidents.js";
import { readReleasesConfig } from "./releases.config.js";

/**
 * GET /v1/release-detail on real PostgreSQL, with Jira and Spira as fakes over HTTP: versions
 * from Jira, OQ runs from the builds table (by Jira release, or Spira release through Spira),
 * incidents from the incident JQL per fixVersion, the four views, and the states a screen shows
 * (not configured, tracker down, bad view).
 */

const JIRA_TOKEN = "jira-token-releases-7f3a";
const SPIRA_KEY = "{SPIRA-RELEASES-KEY}";

let database: TestDatabase;
let jira: JiraFake;
let spira: SpiraFake;
let app: FastifyInstance;
let noSpira: TestApp;
let bare: TestApp;

const incident = (key: string, status: string, ...fixVersions: string[]): FakeIssue => ({
  key,
  summary: `Incident ${key}`,
  status,
  issuetype: "Incident",
  fixVersions,
});

let runKey = 0;
function oqBuild(payload: Record<string, unknown>, testRunKey = `oq-run-${++runKey}`): NewBuild {
  const now = new Date("2026-11-20T10:00:00Z");
  return {
    family: "frontend",
    region: "US",
    executor_kind: "local",
    test_run_key: testRunKey,
    mode: String(payload.mode ?? "oq_test"),
    test_run_name: "OQ",
    executor: "qa",
    source_version: "master",
    payload: JSON.stringify({ mode: "oq_test", ...payload }),
    started_by_email: "qa@example.com",
    started_by_name: "QA",
    build_status: "SUCCEEDED",
    current_phase: "COMPLETED",
    start_time: now,
    end_time: now,
    deadline: now,
  };
}

const report = async (target: FastifyInstance, query = "") => {
  const res = await target.inject({ method: "GET", url: `/v1/release-detail${query}` });
  return { status: res.statusCode, body: res.json() as ReleaseReport & { error?: never } };
};

const jiraEnv = () => ({
  ASSAY_JIRA_URL: jira.url,
  ASSAY_JIRA_EMAIL: "bot@example.com",
  ASSAY_JIRA_TOKEN: JIRA_TOKEN,
  ASSAY_JIRA_PROJECT: "NXL",
  ASSAY_RELEASE_NOTES_URL: "https://wiki.example.com/nora/{version}/notes",
});

beforeAll(async () => {
  database = await createTestDatabase();
  jira = new JiraFake({ deployment: "cloud", email: "bot@example.com", token: JIRA_TOKEN });
  jira.versions.set("NXL", [
    { name: "7.10.0", released: false },
    { name: "7.2.0", released: true, releaseDate: "2026-05-01" },
    { name: "7.2.1", released: true },
    { name: "7.3.0", released: true },
  ]);
  jira.add(
    incident("NXL-1", "Closed", "7.2.0"),
    incident("NXL-2", "Done", "7.2.0"),
    incident("NXL-3", "Open", "7.2.0"),
    // One incident, two releases: counted in each.
    incident("NXL-4", "In Progress", "7.2.1", "7.10.0"),
    // A bug is not an incident: the incident JQL leaves it out.
    { key: "NXL-5", summary: "A bug", status: "Open", issuetype: "Bug", fixVersions: ["7.3.0"] },
  );
  await jira.start();
  spira = new SpiraFake();
  spira.users.set("svc", SPIRA_KEY);
  spira.releases.set(3, [
    { ReleaseId: 31, Name: "Nora", VersionNumber: "7.3.0", Active: true },
    { ReleaseId: 32, Name: "Nora", VersionNumber: "7.2.1", Active: true },
  ]);
  await spira.start();
  const spiraEnv = {
    ASSAY_SPIRA_URL: spira.baseUrl,
    ASSAY_SPIRA_PROJECT_ID: "3",
    ASSAY_SPIRA_USER: "svc",
    ASSAY_SPIRA_API_KEY: SPIRA_KEY,
  };
  const noSignIn = { resolvePrincipal: async () => undefined };
  app = (await buildTestApp(database.db, { env: { ...jiraEnv(), ...spiraEnv }, ...noSignIn })).app;
  noSpira = await buildTestApp(database.db, { env: jiraEnv(), ...noSignIn });
  bare = await buildTestApp(database.db, noSignIn);
  await recordFinishedBuilds(database.db.kysely, [
    oqBuild({ jiraRelease: "7.2.0", releaseId: 99 }, "oq-a"),
    // A rerun of the same run: one run, counted once, under its first build's release.
    oqBuild({ jiraRelease: "7.2.0" }, "oq-a"),
    oqBuild({ jiraRelease: "7.3.0" }, "oq-a"),
    oqBuild({ jiraRelease: "7.2.0" }),
    oqBuild({ jiraRelease: "7.10.0" }),
    // Named by its Spira release only: 31 is 7.3.0 in Spira.
    oqBuild({ releaseId: 31 }),
    oqBuild({ releaseId: 31 }),
    // A release Jira's project does not list (any more): still a row.
    oqBuild({ jiraRelease: "6.9.0" }),
    // Not OQ builds: not counted.
    oqBuild({ mode: "run_all", jiraRelease: "7.3.0" }),
    // No release at all: said in a note.
    oqBuild({}),
  ]);
});

afterAll(async () => {
  await Promise.all([app?.close(), noSpira?.app.close(), bare?.app.close()]);
  await Promise.all([jira?.stop(), spira?.stop()]);
  await database?.drop();
});

beforeEach(() => {
  jira.calls.length = 0;
  jira.failNext = 0;
});

describe("GET /v1/release-detail", () => {
  it("answers a row per release version with its OQ runs, incidents and release notes", async () => {
    const { status, body } = await report(app);
    expect(status).toBe(200);
    expect(body.view).toBe("all");
    const rows = body.rows.map(
      ({ releaseVersion, totalOQ, incidentCount, incidentClose, incidentOpen }) => [
        releaseVersion,
        totalOQ,
        incidentCount,
        incidentClose,
        incidentOpen,
      ],
    );
    // Release order: 7.10.0 after 7.3.0.
    expect(rows).toEqual([
      ["6.9.0", 1, 0, 0, 0],
      ["7.2.0", 2, 3, 2, 1],
      ["7.2.1", 0, 1, 0, 1],
      ["7.3.0", 2, 0, 0, 0],
      ["7.10.0", 1, 1, 0, 1],
    ]);
    const row720 = body.rows.find((r) => r.releaseVersion === "7.2.0")!;
    expect(row720).toMatchObject({
      releaseNotesUrl: "https://wiki.example.com/nora/7.2.0/notes",
      released: true,
      releaseDate: "2026-05-01",
    });
    expect(body.rows[0]).toMatchObject({ released: null, releaseDate: null });
    expect(body.releaseNotesConfigured).toBe(true);
    expect(body.notes).toEqual([
      "1 OQ run names no release (started without a Jira or Spira release): not counted.",
    ]);
  });

  it("says which source each figure came from", async () => {
    const { body } = await report(app);
    expect(body.sources.releaseVersions.map((s) => s.kind)).toEqual(["jira", "builds"]);
    expect(body.sources.totalOQ.map((s) => s.kind)).toEqual(["builds", "spira"]);
    expect(body.sources.incidents).toEqual([
      expect.objectContaining({ kind: "jira", demo: false }),
    ]);
    expect(body.sources.incidents[0]!.detail).toContain("issuetype = Incident");
  });

  it("asks Jira for the incidents of all versions in one search, with the incident JQL", async () => {
    await report(app);
    const searches = jira.calls.filter((c) => c.path === "/rest/api/3/search/jql");
    expect(searches).toHaveLength(1);
    expect((searches[0]!.body as { jql: string }).jql).toBe(
      '(issuetype = Incident) AND fixVersion in ("7.10.0", "7.2.0", "7.2.1", "7.3.0")',
    );
  });

  it.each([
    // Spec: the version contains '.0' (so 6.9.0 is one too).
    ["major", ["6.9.0", "7.2.0", "7.3.0", "7.10.0"]],
    ["all", ["6.9.0", "7.2.0", "7.2.1", "7.3.0", "7.10.0"]],
    ["withOq", ["6.9.0", "7.2.0", "7.3.0", "7.10.0"]],
    ["withIn", ["7.2.0", "7.2.1", "7.10.0"]],
  ])("filters the view %s", async (view, versions) => {
    const { status, body } = await report(app, `?view=${view}`);
    expect(status).toBe(200);
    expect(body.view).toBe(view);
    expect(body.rows.map((r) => r.releaseVersion)).toEqual(versions);
  });

  it("refuses an unknown view, saying which ones exist", async () => {
    const { status, body } = await report(app, "?view=minor");
    expect(status).toBe(400);
    expect(JSON.stringify(body)).toContain("major, all, withOq, withIn");
  });

  it("counts Spira-only OQ builds as not counted when Spira is not configured, and says so", async () => {
    const { status, body } = await report(noSpira.app);
    expect(status).toBe(200);
    expect(body.rows.find((r) => r.releaseVersion === "7.3.0")?.totalOQ).toBe(0);
    expect(body.notes.join(" ")).toContain(
      "2 OQ runs name only a Spira release and are not counted",
    );
    expect(body.notes.join(" ")).toContain("ASSAY_SPIRA_URL");
  });

  it("answers 503 with what to set when Jira is not configured", async () => {
    const { status, body } = await report(bare.app);
    expect(status).toBe(503);
    expect(body).toEqual({
      error: { code: "not_configured", message: expect.stringContaining("ASSAY_JIRA_URL") },
    });
  });

  it("answers 502 with Jira's own words when Jira fails", async () => {
    jira.failNext = 1;
    const { status, body } = await report(app);
    expect(status).toBe(502);
    expect(JSON.stringify(body)).toContain("Jira answered 500");
    expect(JSON.stringify(body)).not.toContain(JIRA_TOKEN);
  });
});

describe("incident rules", () => {
  it("counts Jira's Done status category as closed, whatever the status is called", () => {
    const issue = (key: string, name: string, category: string | undefined) => ({
      id: key,
      key,
      fields: {
        status: { name, ...(category ? { statusCategory: { key: category } } : {}) },
        fixVersions: [{ name: "1.0" }],
      },
    });
    const counts = countIncidents(
      [
        issue("A-1", "Shipped", "done"),
        issue("A-2", "Closed", "indeterminate"),
        issue("A-3", "Resolved", undefined),
      ],
      new Set(["1.0"]),
    );
    expect(counts.get("1.0")).toEqual({ count: 3, closed: 2, open: 1 });
  });

  it("quotes version names as JQL strings", () => {
    expect(jqlString('7.0 "beta" \\ x')).toBe('"7.0 \\"beta\\" \\\\ x"');
  });

  it("reads the settings, refusing a release notes URL without {version}", () => {
    expect(readReleasesConfig({})).toEqual({
      config: { incidentJql: "issuetype = Incident", releaseNotesUrl: undefined },
    });
    expect(
      readReleasesConfig({
        ASSAY_JIRA_INCIDENT_JQL: "project = OPS AND type = Incident ORDER BY key",
      }),
    ).toMatchObject({ config: { incidentJql: "project = OPS AND type = Incident" } });
    const bad = readReleasesConfig({ ASSAY_RELEASE_NOTES_URL: "https://wiki.example.com/notes" });
    expect(bad).toEqual({ problems: [expect.stringContaining("{version}")] });
    const notUrl = readReleasesConfig({ ASSAY_RELEASE_NOTES_URL: "wiki/{version}" });
    expect(notUrl).toEqual({ problems: [expect.stringContaining("http(s) URL")] });
  });
});
