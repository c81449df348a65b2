import { fileURLToPath } from "node:url";

/**
 * A Jira for journeys: the server's own fake (apps/server/src/modules/integrations/fakes/
 * jira-fake.ts, as `npm run build` compiled it), which the server tests and the demo use, so
 * a journey sees ticket details come through the real client and wire protocol.
 */

export interface JiraIssue {
  key: string;
  summary: string;
  status: string;
  issuetype: string;
}

export interface JiraFake {
  add(...issues: JiraIssue[]): JiraFake;
  start(port?: number): Promise<string>;
  stop(): Promise<void>;
  /** Calls made to `path`, e.g. /rest/api/3/issue/bulkfetch. */
  count(path: string): number;
}

const FAKE = fileURLToPath(
  new URL("../../apps/server/dist/modules/integrations/fakes/jira-fake.js", import.meta.url),
);
const CREDENTIALS = { email: "e2e-jira@example.com", token: "e2e-jira-token" };

/** The fake started with `issues`, and the environment that points the server at it. */
export async function startJiraFake(
  issues: JiraIssue[],
): Promise<{ jira: JiraFake; env: Record<string, string> }> {
  const loaded = (await import(FAKE)) as {
    JiraFake: new (options: { deployment: "cloud"; email: string; token: string }) => JiraFake;
  };
  const jira = new loaded.JiraFake({ deployment: "cloud", ...CREDENTIALS }).add(...issues);
  const url = await jira.start();
  return {
    jira,
    env: {
      ASSAY_JIRA_URL: url,
      ASSAY_JIRA_DEPLOYMENT: "cloud",
      ASSAY_JIRA_EMAIL: CREDENTIALS.email,
      ASSAY_JIRA_TOKEN: CREDENTIALS.token,
    },
  };
}
