import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { temporaryFolder } from "../../../test/temporary-folder.js";
import { ConfigError, EXAMPLE_CONFIG_PATH, loadConfig } from "../../config.js";

/**
 * Jira and Spira set in assay.config.yaml's `integrations:` key: read at start with the rest of
 * the file, every variable that is set winning over it, secrets refused in the file (they come
 * from the environment or NAME_FILE only).
 */

const dir = temporaryFolder("assay-integrations-");
const example = readFileSync(EXAMPLE_CONFIG_PATH, "utf8");

/** The shipped example (a full catalogue) with `integrations:` appended. */
function configWith(name: string, integrations: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, `${example}\nintegrations:\n${integrations}`);
  return file;
}

function problemsOf(fn: () => unknown): string[] {
  try {
    fn();
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error("expected a ConfigError");
}

const FULL = `  jira:
    url: https://acme.atlassian.net
    deployment: cloud
    email: qa-bot@acme.example
    project: NXL
    requirementsJql: project = RMS AND statusCategory != Done
    requirementTypes: [Story, Requirement]
    bugTypes: [Bug, Defect]
    incidentJql: project = INC
    linkTypes: [Relates, Blocks]
    syncCron: "30 2 * * *"
  spira:
    url: https://spira.acme.example/Services/v7_0/RestService.svc/
    projectId: 12
    user: svc-assay
  ticketCacheMinutes: 15
  timeoutSeconds: 9
`;

describe("integrations in assay.config.yaml", () => {
  it("reads every Jira and Spira setting from the file, the secrets from the environment", () => {
    const config = loadConfig(
      {
        ASSAY_CONFIG: configWith("full.yaml", FULL),
        ASSAY_JIRA_TOKEN: "jira-secret",
        ASSAY_SPIRA_API_KEY: "{SPIRA-SECRET}",
      },
      dir,
    );
    expect(config.integrations.jira).toEqual({
      baseUrl: "https://acme.atlassian.net",
      deployment: "cloud",
      email: "qa-bot@acme.example",
      token: "jira-secret",
      project: "NXL",
      timeoutMs: 9000,
      requirementsJql: "project = RMS AND statusCategory != Done",
      requirementTypes: ["Story", "Requirement"],
      bugTypes: ["Bug", "Defect"],
      linkTypes: ["Relates", "Blocks"],
      incidentJql: "project = INC",
      syncCron: "30 2 * * *",
    });
    expect(config.integrations.spira).toMatchObject({
      baseUrl: "https://spira.acme.example/Services/v7_0/RestService.svc/",
      projectId: 12,
      serviceUser: "svc-assay",
      serviceApiKey: "{SPIRA-SECRET}",
      requirementsSync: false,
    });
    expect(config.integrations.ticketTtlMs).toBe(15 * 60_000);
  });

  it("lets each environment variable that is set override the file", () => {
    const config = loadConfig(
      {
        ASSAY_CONFIG: configWith("override.yaml", FULL),
        ASSAY_JIRA_TOKEN: "t",
        ASSAY_JIRA_URL: "https://jira.internal.example",
        ASSAY_JIRA_DEPLOYMENT: "datacenter",
        ASSAY_JIRA_BUG_TYPES: "Incident",
        ASSAY_SPIRA_PROJECT_ID: "44",
      },
      dir,
    );
    expect(config.integrations.jira).toMatchObject({
      baseUrl: "https://jira.internal.example",
      deployment: "datacenter",
      bugTypes: ["Incident"],
      // Not overridden: still the file's.
      project: "NXL",
      linkTypes: ["Relates", "Blocks"],
    });
    expect(config.integrations.spira?.projectId).toBe(44);
  });

  it("reads the secrets from NAME_FILE (a Docker or Kubernetes secret)", () => {
    const tokenFile = path.join(dir, "jira-token");
    writeFileSync(tokenFile, "from-a-file\n");
    const file = configWith("files.yaml", FULL);
    const config = loadConfig({ ASSAY_CONFIG: file, ASSAY_JIRA_TOKEN_FILE: tokenFile }, dir);
    expect(config.integrations.jira?.token).toBe("from-a-file");
    const missing = path.join(dir, "missing-key");
    const problems = problemsOf(() =>
      loadConfig({ ASSAY_CONFIG: file, ASSAY_SPIRA_API_KEY_FILE: missing }, dir),
    );
    expect(problems).toEqual([
      `ASSAY_SPIRA_API_KEY_FILE names a file Assay cannot read (${missing}: ENOENT)`,
    ]);
  });

  it("refuses a secret in the file with what to do instead, never quoting it", () => {
    const file = configWith(
      "secret.yaml",
      `  jira:\n    url: https://acme.atlassian.net\n    email: a@acme.example\n    token: hunter2-secret\n  spira:\n    apiKey: "{KEY-IN-FILE}"\n`,
    );
    const problems = problemsOf(() => loadConfig({ ASSAY_CONFIG: file }, dir));
    expect(problems).toEqual([
      expect.stringMatching(
        /^secret\.yaml: integrations\.jira\.token: secrets never go in assay\.config\.yaml: remove this key and set ASSAY_JIRA_TOKEN \(or ASSAY_JIRA_TOKEN_FILE/,
      ),
      expect.stringMatching(
        /^secret\.yaml: integrations\.spira\.apiKey: secrets never go in assay\.config\.yaml: .*ASSAY_SPIRA_API_KEY/,
      ),
    ]);
    expect(problems.join("\n")).not.toMatch(/hunter2|KEY-IN-FILE/);
  });

  it("names a bad file value by its key in the file, and unknown keys", () => {
    const file = configWith(
      "bad.yaml",
      `  jira:\n    url: ftp://acme.example\n    jql: x\n  spira:\n    projectId: twelve\n`,
    );
    const problems = problemsOf(() => loadConfig({ ASSAY_CONFIG: file }, dir));
    expect(problems.join("\n")).toContain("integrations.jira");
    expect(problems.some((p) => p.includes('"jql"'))).toBe(true);
    expect(problems.some((p) => p.startsWith("bad.yaml: integrations.spira.projectId"))).toBe(true);
    const url = problemsOf(() =>
      loadConfig(
        {
          ASSAY_CONFIG: configWith("url.yaml", `  jira:\n    url: ftp://acme.example\n`),
          ASSAY_JIRA_TOKEN: "t",
        },
        dir,
      ),
    );
    expect(url).toContain(
      'assay.config.yaml: integrations.jira.url: expected an http(s) URL such as https://example.atlassian.net, got "ftp://acme.example"',
    );
  });

  it("refuses syncing requirements from both Jira and Spira, and a Spira sync without its account", () => {
    const file = configWith("both.yaml", `${FULL.replace("    user: svc-assay\n", "")}`);
    const both = problemsOf(() =>
      loadConfig(
        {
          ASSAY_CONFIG: file,
          ASSAY_JIRA_TOKEN: "t",
          ASSAY_SPIRA_REQUIREMENTS_SYNC: "true",
        },
        dir,
      ),
    );
    expect(both).toEqual([
      expect.stringContaining("set ASSAY_SPIRA_USER and ASSAY_SPIRA_API_KEY"),
      expect.stringContaining("sync them from Jira (ASSAY_JIRA_REQUIREMENTS_JQL) or from Spira"),
    ]);
  });
});
