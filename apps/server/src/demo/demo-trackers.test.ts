import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readIntegrationsConfig } from "../modules/integrations/integrations.config.js";
import { createTrackers, type Trackers } from "../modules/integrations/integrations.service.js";
import { incidentsByVersion } from "../modules/releases/incidents.js";
import { DEFAULT_INCIDENT_JQL } from "../modules/releases/releases.config.js";
import { demoRequirements } from "./demo-requirements.js";
import { startDemoTrackers, type DemoTrackers } from "./demo-trackers.js";

/** The demo's Jira and Spira answer the real clients over HTTP with the demo's content. */

let demo: DemoTrackers;
let trackers: Trackers;

beforeAll(async () => {
  const read = readIntegrationsConfig({});
  if (!("config" in read)) throw new Error(read.problems.join("; "));
  demo = await startDemoTrackers(read.config);
  trackers = createTrackers(demo.config, demo.demo);
});
afterAll(async () => {
  await demo?.stop();
});

describe("demo trackers", () => {
  it("stand in for both unset trackers, marked as the demo's", () => {
    expect(demo.demo).toEqual({ jira: true, spira: true });
    expect(trackers.jira?.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it("know the tickets the demo's failures name and the requirements' bugs", async () => {
    // A key named by two requirements of the demo file is the later one's, as its import keeps.
    const bugs = new Map(demoRequirements().flatMap((r) => r.bugs.map((b) => [b.key, b])));
    const bug = [...bugs.values()][0]!;
    const issues = await trackers.jira!.issuesByKey(["NXL-1234", bug.key], ["summary", "status"]);
    expect(issues.map((i) => i.key).sort()).toEqual([bug.key, "NXL-1234"].sort());
    const found = issues.find((i) => i.key === bug.key);
    expect(found?.fields).toEqual({ summary: bug.summary, status: { name: bug.status } });
  });

  it("serve the demo requirements to the sync's JQL, and release lists", async () => {
    const jql = demo.config.jira!.requirementsJql!;
    const issues = await trackers.jira!.search(jql, ["summary"]);
    expect(issues).toHaveLength(demoRequirements().length);
    expect((await trackers.jira!.versions("NXL")).map((v) => v.name)).toContain("7.4.0");
    const releases = await trackers.spira!.releases(trackers.spira!.serviceCredentials!);
    expect(releases[0]).toMatchObject({ FullName: "Nora 7.0.0" });
  });

  it("hold incidents of the release versions for the Nora Releases report", async () => {
    const versions = (await trackers.jira!.versions("NXL")).map((v) => v.name);
    const counts = await incidentsByVersion(trackers.jira!, DEFAULT_INCIDENT_JQL, versions);
    expect(counts.get("7.0.0")).toEqual({ count: 4, closed: 4, open: 0 });
    expect(counts.get("7.4.0")).toEqual({ count: 2, closed: 0, open: 2 });
    expect(counts.has("7.3.0")).toBe(false);
  });
});
