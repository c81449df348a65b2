import {
  compareVersions,
  NOT_CONFIGURED,
  releasesInView,
  type ReleaseReport,
  type ReleaseReportRow,
  type ReleaseSource,
  type ReleaseView,
} from "@assay/core";
import type { Db } from "../../db/pool.js";
import { AppError } from "../../errors.js";
import { oqRunsByRelease, type OqRunsOfRelease } from "../builds/oq-builds.repo.js";
import { fromTracker, type Trackers } from "../integrations/integrations.service.js";
import type { JiraClient } from "../integrations/jira.client.js";
import { TrackerError } from "../integrations/tracker-http.js";
import { importedReleases } from "../traceability/imported-releases.repo.js";
import { incidentsByVersion, type IncidentCounts } from "./incidents.js";
import { releaseNotesUrl, type ReleasesConfig } from "./releases.config.js";

/**
 * The Nora Releases report: Jira's versions of the project, each with the runs of the OQ builds
 * started for it in Assay (named by the OQ dialog's Jira release, or by its Spira release,
 * whose version number Spira gives) and the incidents the incident JQL finds with that
 * fixVersion. Jira holds the versions and the incidents; without Jira, the releases section of
 * the imported requirements file does (issue #22). Spira only names the OQ builds that have a
 * Spira release alone, and its failure is a note, not an error.
 */

export interface ReleasesDeps {
  db: Db;
  trackers: Trackers;
  config: ReleasesConfig;
}

interface OqTotals {
  byVersion: Map<string, number>;
  sources: ReleaseSource[];
  notes: string[];
}

/** "1 OQ run names" / "3 OQ runs name": the start of a note. */
const runsName = (n: number) => (n === 1 ? "1 OQ run names" : `${n} OQ runs name`);

/** OQ runs per version; the builds naming a Spira release only are named through Spira. */
async function oqTotals(deps: ReleasesDeps): Promise<OqTotals> {
  const groups = await oqRunsByRelease(deps.db.kysely);
  const byVersion = new Map<string, number>();
  const add = (version: string, runs: number) =>
    byVersion.set(version, (byVersion.get(version) ?? 0) + runs);
  const sources: ReleaseSource[] = [
    {
      kind: "builds",
      demo: false,
      detail: "runs of the OQ builds (run type OQ Test) started in Assay, by their Jira release",
    },
  ];
  const notes: string[] = [];
  const spiraOnly: OqRunsOfRelease[] = [];
  let unnamed = 0;
  for (const group of groups) {
    if (group.jiraRelease !== null) add(group.jiraRelease, group.runs);
    else if (group.spiraReleaseId !== null) spiraOnly.push(group);
    else unnamed += group.runs;
  }
  if (unnamed > 0)
    notes.push(
      `${runsName(unnamed)} no release (started without a Jira or Spira release): not counted.`,
    );
  if (spiraOnly.length === 0) return { byVersion, sources, notes };
  const waiting = spiraOnly.reduce((sum, group) => sum + group.runs, 0);
  const spira = deps.trackers.spira;
  const credentials = spira?.serviceCredentials;
  if (!spira || !credentials) {
    notes.push(
      `${runsName(waiting)} only a Spira release and ${waiting === 1 ? "is" : "are"} not counted: ${
        spira
          ? "set ASSAY_SPIRA_USER and ASSAY_SPIRA_API_KEY (a service account) so Assay can read Spira's releases."
          : NOT_CONFIGURED.spira
      }`,
    );
    return { byVersion, sources, notes };
  }
  try {
    const releases = await spira.releases(credentials);
    const versionOf = new Map(releases.map((r) => [r.ReleaseId, r.VersionNumber]));
    let unknown = 0;
    for (const group of spiraOnly) {
      const version = versionOf.get(group.spiraReleaseId!);
      if (version) add(version, group.runs);
      else unknown += group.runs;
    }
    sources.push({
      kind: "spira",
      demo: deps.trackers.demo.spira,
      detail: `version numbers of the Spira releases the other OQ builds name (project ${spira.settings.projectId})`,
    });
    if (unknown > 0)
      notes.push(
        `${runsName(unknown)} a Spira release that is not an active release of project ${spira.settings.projectId}: not counted.`,
      );
  } catch (error) {
    if (!(error instanceof TrackerError)) throw error;
    notes.push(
      `${runsName(waiting)} only a Spira release and ${waiting === 1 ? "is" : "are"} not counted: ${error.message}`,
    );
  }
  return { byVersion, sources, notes };
}

interface VersionList {
  versions: { name: string; released: boolean; releaseDate: string | null }[];
  incidents: Map<string, IncidentCounts>;
  releaseVersions: ReleaseSource;
  incidentSource: ReleaseSource;
}

/** Jira's versions of the project and the incident JQL's issues per fixVersion. */
async function fromJira(
  jira: JiraClient,
  project: string,
  deps: ReleasesDeps,
): Promise<VersionList> {
  const found = await fromTracker(() => jira.versions(project));
  const names = [...new Set(found.map((v) => v.name))];
  const incidents = await fromTracker(() =>
    incidentsByVersion(jira, deps.config.incidentJql, names),
  );
  const demo = deps.trackers.demo.jira;
  return {
    versions: found.map((v) => ({
      name: v.name,
      released: v.released === true,
      releaseDate: v.releaseDate ?? null,
    })),
    incidents,
    releaseVersions: { kind: "jira", demo, detail: `versions of Jira project ${project}` },
    incidentSource: {
      kind: "jira",
      demo,
      detail: `issues of '${deps.config.incidentJql}' per fixVersion; closed: Jira's Done status category`,
    },
  };
}

/** The releases section of the imported requirements file; null when none was imported. */
async function fromImportedFile(deps: ReleasesDeps): Promise<VersionList | null> {
  const releases = await importedReleases(deps.db);
  const first = releases[0];
  if (!first) return null;
  const file = `imported file ${first.fileName}, ${first.importedAt.toISOString()}`;
  return {
    versions: releases.map((r) => ({
      name: r.version,
      released: r.released ?? r.releasedAt !== null,
      releaseDate: r.releasedAt,
    })),
    incidents: new Map(
      releases.map((r) => [
        r.version,
        { count: r.incidents, closed: r.closed, open: r.incidents - r.closed },
      ]),
    ),
    releaseVersions: { kind: "file", demo: false, detail: `releases of the ${file}` },
    incidentSource: {
      kind: "file",
      demo: false,
      detail: `incidents of each release in the ${file}; closed: as the file says`,
    },
  };
}

/**
 * Jira when it is configured (it wins); otherwise the releases section of the imported
 * requirements file, for teams without Jira; neither: 503 saying what to set.
 */
async function versionList(deps: ReleasesDeps): Promise<VersionList> {
  const jira = deps.trackers.jira;
  const project = deps.trackers.config.jira?.project;
  if (jira && project) return fromJira(jira, project, deps);
  const imported = await fromImportedFile(deps);
  if (imported) return imported;
  if (!jira) throw new AppError(503, "not_configured", `${NOT_CONFIGURED.jira} ${NO_FILE}`);
  throw new AppError(
    503,
    "not_configured",
    `The release report lists the versions of a Jira project: set ASSAY_JIRA_PROJECT (docs/integrations.md). ${NO_FILE}`,
  );
}

const NO_FILE =
  "Without Jira, import a requirements file with a releases section (docs/integrations.md).";

export async function releaseReport(
  deps: ReleasesDeps,
  view: ReleaseView,
  now = new Date(),
): Promise<ReleaseReport> {
  const { config } = deps;
  const [list, oq] = await Promise.all([versionList(deps), oqTotals(deps)]);
  const { versions, incidents } = list;
  const known = new Set(versions.map((v) => v.name));
  const row = (
    name: string,
    released: boolean | null,
    releaseDate: string | null,
  ): ReleaseReportRow => {
    const found = incidents.get(name);
    return {
      releaseVersion: name,
      totalOQ: oq.byVersion.get(name) ?? 0,
      incidentCount: found?.count ?? 0,
      incidentClose: found?.closed ?? 0,
      incidentOpen: found?.open ?? 0,
      releaseNotesUrl: releaseNotesUrl(config.releaseNotesUrl, name),
      released,
      releaseDate,
    };
  };
  const rows = [
    ...versions.map((v) => row(v.name, v.released, v.releaseDate)),
    // OQ builds of a release the list no longer has (deleted, another project) still count.
    ...[...oq.byVersion.keys()].filter((name) => !known.has(name)).map((n) => row(n, null, null)),
  ].sort((a, b) => compareVersions(a.releaseVersion, b.releaseVersion));
  const releaseVersions: ReleaseSource[] = [list.releaseVersions];
  if (rows.length > versions.length)
    releaseVersions.push({
      kind: "builds",
      demo: false,
      detail:
        list.releaseVersions.kind === "jira"
          ? "Jira releases named by OQ builds that Jira's project no longer lists"
          : "Jira releases named by OQ builds that the imported file does not list",
    });
  return {
    rows: releasesInView(rows, view),
    view,
    sources: { releaseVersions, totalOQ: oq.sources, incidents: [list.incidentSource] },
    notes: oq.notes,
    releaseNotesConfigured: config.releaseNotesUrl !== undefined,
    generatedAt: now.toISOString(),
  };
}
