import {
  NOT_CONFIGURED,
  type IntegrationsStatus,
  type JiraReleaseVersion,
  type SpiraRelease,
} from "@assay/core";
import type { Db } from "../../db/pool.js";
import { AppError } from "../../errors.js";
import type { IntegrationsConfig } from "./integrations.config.js";
import * as repo from "./integrations.repo.js";
import { JiraClient } from "./jira.client.js";
import { SpiraClient, type SpiraCredentials } from "./spira.client.js";
import { TrackerError } from "./tracker-http.js";

/**
 * Ticket details, release lists and the trackers' state for the screens. Every Jira or Spira
 * failure becomes a 502 saying which tracker and why; an unconfigured one a 503 saying what to
 * set, so a screen can show the reason instead of an empty list.
 */

export interface Trackers {
  config: IntegrationsConfig;
  jira: JiraClient | undefined;
  spira: SpiraClient | undefined;
  /** The built-in fakes started for the demo (server.ts), not a real tracker. */
  demo: { jira: boolean; spira: boolean };
}

export function createTrackers(
  config: IntegrationsConfig,
  demo = { jira: false, spira: false },
): Trackers {
  return {
    config,
    jira: config.jira ? new JiraClient(config.jira) : undefined,
    spira: config.spira ? new SpiraClient(config.spira) : undefined,
    demo,
  };
}

export const notConfigured = (tracker: "jira" | "spira") =>
  new AppError(503, "not_configured", NOT_CONFIGURED[tracker]);

/** A tracker's failure as the 502 a screen shows. */
export async function fromTracker<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof TrackerError)
      throw new AppError(502, "tracker_unavailable", error.message);
    throw error;
  }
}

export async function jiraReleaseVersions(trackers: Trackers): Promise<JiraReleaseVersion[]> {
  const jira = trackers.jira;
  if (!jira) throw notConfigured("jira");
  const project = trackers.config.jira?.project;
  if (!project)
    throw new AppError(
      503,
      "not_configured",
      "Jira's release list needs a project: set ASSAY_JIRA_PROJECT (docs/integrations.md).",
    );
  const versions = await fromTracker(() => jira.versions(project));
  return versions
    .filter((version) => !version.archived)
    .map((version) => ({
      name: version.name,
      released: version.released === true,
      releaseDate: version.releaseDate ?? null,
    }));
}

/** The releases, asked with the user's own Spira credentials, else the service account's. */
export async function spiraReleases(
  trackers: Trackers,
  own: SpiraCredentials | undefined,
): Promise<SpiraRelease[]> {
  const spira = trackers.spira;
  if (!spira) throw notConfigured("spira");
  const credentials = own ?? spira.serviceCredentials;
  if (!credentials)
    throw new AppError(
      400,
      "spira_credentials_missing",
      "Please provide SPIRA credentials, in your profile first.",
    );
  const releases = await fromTracker(() => spira.releases(credentials));
  return releases.map((release) => ({
    ReleaseId: release.ReleaseId,
    FullName: release.FullName ?? release.Name,
  }));
}

const iso = (date: Date | null | undefined) => (date ? date.toISOString() : null);

export async function integrationsStatus(db: Db, trackers: Trackers): Promise<IntegrationsStatus> {
  // The tracker the requirements come from (config allows one); none set: Jira's history.
  const spiraSync = Boolean(
    trackers.spira && trackers.config.spira?.requirementsSync && trackers.spira.serviceCredentials,
  );
  const jiraSync = Boolean(trackers.jira && trackers.config.jira?.requirementsJql);
  const tracker = jiraSync ? "jira" : spiraSync ? "spira" : null;
  const [sync, lastSuccessAt] = await Promise.all([
    repo.latestSync(db, tracker ?? "jira"),
    repo.lastSuccess(db, tracker ?? "jira"),
  ]);
  const state = (client: { origin: string } | undefined, demo: boolean) => ({
    configured: client !== undefined,
    kind: client ? (demo ? ("demo" as const) : ("real" as const)) : null,
    origin: client?.origin ?? null,
  });
  return {
    jira: { ...state(trackers.jira, trackers.demo.jira), requirementsSync: jiraSync },
    spira: { ...state(trackers.spira, trackers.demo.spira), requirementsSync: spiraSync },
    sync: {
      tracker,
      state: sync?.state ?? "never",
      progress: sync?.progress ?? null,
      startedAt: iso(sync?.started_at),
      finishedAt: iso(sync?.finished_at),
      // The two reads run side by side, each in its own snapshot: a sync that has just
      // succeeded is its own last success even if the other read came a moment before it.
      lastSuccessAt: iso(sync?.state === "succeeded" ? sync.finished_at : lastSuccessAt),
      error: sync?.error ?? null,
    },
  };
}
