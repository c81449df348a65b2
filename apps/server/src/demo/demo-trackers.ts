import { randomBytes } from "node:crypto";
import type { IntegrationsConfig } from "../modules/integrations/integrations.config.js";
import { JiraFake, type FakeIssue } from "../modules/integrations/fakes/jira-fake.js";
import { SpiraFake } from "../modules/integrations/fakes/spira-fake.js";
import { demoRequirements } from "./demo-requirements.js";
import { AREAS } from "./demo-vocabulary.js";

/**
 * The demo's Jira and Spira: the fakes the tests use, started on 127.0.0.1 when the demo runs
 * without ASSAY_JIRA_URL / ASSAY_SPIRA_URL, so ticket details and release lists go through the
 * real clients and wire protocol. Their content: the demo requirements' bugs, a ticket for each
 * key the demo's failure messages can name (NXL-1200..9899, see demo-tests.ts), the release
 * versions of the demo's branches with their incidents (the Nora Releases report), and Spira
 * releases of the same versions. /v1/integrations says "demo" so the screens never pass them
 * off as a real tracker.
 */

const DEFECTS = [
  "fails on some devices",
  "times out under load",
  "shows the wrong date format",
  "loses the entered value after a reload",
  "is not translated",
  "misses an audit trail entry",
];
const STATUSES = ["Open", "In Progress", "Resolved", "Closed", "Done"];
export const DEMO_VERSIONS = ["7.0.0", "7.1.0", "7.1.1", "7.2.0", "7.3.0", "7.3.1", "7.4.0"];

function demoTickets(): FakeIssue[] {
  const features = Object.values(AREAS).flatMap((areas) => areas.map((a) => a.feature));
  const tickets: FakeIssue[] = [];
  for (let n = 1200; n <= 9899; n++) {
    tickets.push({
      key: `NXL-${n}`,
      summary: `${features[n % features.length]}: ${DEFECTS[n % DEFECTS.length]}`,
      status: STATUSES[n % STATUSES.length] ?? "Open",
      issuetype: "Bug",
      fixVersions: [DEMO_VERSIONS[n % DEMO_VERSIONS.length] ?? "7.4.0"],
    });
  }
  // The requirements and their bugs come last: the same as the demo's requirements file, so a
  // sync from the demo Jira ("Sync now" on the matrix) gives the matrix the file imported.
  for (const requirement of demoRequirements()) {
    for (const bug of requirement.bugs)
      tickets.push({ key: bug.key, summary: bug.summary, status: bug.status, issuetype: "Bug" });
    tickets.push({
      key: requirement.rms,
      summary: requirement.summary,
      status: "Approved",
      issuetype: requirement.type,
      epic: requirement.epic,
      links: requirement.bugs.map((bug) => ({
        type: "Relates",
        direction: "inward" as const,
        key: bug.key,
      })),
    });
  }
  return tickets;
}

/**
 * Incidents of the Nora Releases report (issue type Incident, found by the default incident
 * JQL per fixVersion): per version, how many are closed and how many still open. 7.3.0 has none,
 * so the report's "Release with Incidents" view leaves it out.
 */
const DEMO_INCIDENTS: readonly [version: string, closed: number, open: number][] = [
  ["7.0.0", 4, 0],
  ["7.1.0", 3, 0],
  ["7.1.1", 1, 0],
  ["7.2.0", 2, 1],
  ["7.3.1", 1, 1],
  ["7.4.0", 0, 2],
];

function demoIncidents(): FakeIssue[] {
  const incidents: FakeIssue[] = [];
  let n = 12_001;
  for (const [version, closed, open] of DEMO_INCIDENTS) {
    for (let i = 0; i < closed + open; i++, n++) {
      incidents.push({
        key: `NXL-${n}`,
        summary: `Production incident in ${version}: ${DEFECTS[n % DEFECTS.length]}`,
        status: i < closed ? (i % 2 === 0 ? "Closed" : "Resolved") : "In Progress",
        issuetype: "Incident",
        fixVersions: [version],
      });
    }
  }
  return incidents;
}

export interface DemoTrackers {
  config: IntegrationsConfig;
  demo: { jira: boolean; spira: boolean };
  stop(): Promise<void>;
}

/** Starts a fake for each tracker `config` leaves unset; the others stay as configured. */
export async function startDemoTrackers(config: IntegrationsConfig): Promise<DemoTrackers> {
  const stops: (() => Promise<void>)[] = [];
  let { jira, spira } = config;
  if (!jira) {
    const token = randomBytes(16).toString("hex");
    const fake = new JiraFake({ deployment: "cloud", email: "demo@assay.invalid", token });
    fake.add(...demoTickets(), ...demoIncidents());
    fake.versions.set(
      "NXL",
      DEMO_VERSIONS.map((name, i) => ({
        name,
        released: i < DEMO_VERSIONS.length - 1,
        releaseDate: `2026-${String(3 + i).padStart(2, "0")}-15`,
      })),
    );
    await fake.start();
    stops.push(() => fake.stop());
    jira = {
      baseUrl: fake.url,
      deployment: "cloud",
      email: "demo@assay.invalid",
      token,
      project: "NXL",
      timeoutMs: config.timeoutMs,
      // Requirements synced from a configured Spira stay Spira's: one source at a time.
      requirementsJql: config.spira?.requirementsSync ? undefined : "project = RMS ORDER BY key",
      requirementTypes: [],
      bugTypes: ["Bug"],
      linkTypes: [],
      incidentJql: "project = NXL AND issuetype = Bug",
      syncCron: "0 * * * *",
    };
  }
  if (!spira) {
    const apiKey = `{${randomBytes(8).toString("hex").toUpperCase()}}`;
    const fake = new SpiraFake();
    fake.users.set("assay-demo", apiKey);
    fake.acceptAnyUser = true;
    fake.releases.set(
      1,
      DEMO_VERSIONS.map((version, i) => ({
        ReleaseId: 100 + i,
        Name: "Nora",
        VersionNumber: version,
        Active: true,
      })),
    );
    await fake.start();
    stops.push(() => fake.stop());
    spira = {
      baseUrl: fake.baseUrl,
      projectId: 1,
      serviceUser: "assay-demo",
      serviceApiKey: apiKey,
      timeoutMs: config.timeoutMs,
      // The demo's requirements come from its Jira (or the imported file), not from Spira.
      requirementsSync: false,
      syncCron: "0 * * * *",
    };
  }
  return {
    config: { ...config, jira, spira },
    demo: { jira: !config.jira, spira: !config.spira },
    stop: async () => {
      await Promise.all(stops.map((stop) => stop()));
    },
  };
}
