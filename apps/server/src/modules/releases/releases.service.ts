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
import { TrackerError } from "../integrations/tracker-http.js";
import { incidentsByVersion } from "./incidents.js";
import { releaseNotesUrl, type ReleasesConfig } from "./releases.config.js";

/**
 * The Nora Releases report: Jira's versions of the project, each with the runs of the OQ builds
 * started for it in Assay (named by the OQ dialog's Jira release, or by its Spira release,
 * whose version number Spira gives) and the incidents the incident JQL finds with that
 * fixVersion. Jira is required (it holds the versions and the incidents); Spira only names the
 * OQ builds that have a Spira release alone, and its failure is a note, not an error.
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

export async function releaseReport(
  deps: ReleasesDeps,
  view: ReleaseView,
  now = new Date(),
): Promise<ReleaseReport> {
  const { trackers, config } = deps;
  const jira = trackers.jira;
  if (!jira) throw new AppError(503, "not_configured", NOT_CONFIGURED.jira);
  const project = trackers.config.jira?.project;
  if (!project)
    throw new AppError(
      503,
      "not_configured",
      "The release report lists the versions of a Jira project: set ASSAY_JIRA_PROJECT (docs/integrations.md).",
    );
  const [versions, oq] = await Promise.all([
    fromTracker(() => jira.versions(project)),
    oqTotals(deps),
  ]);
  const names = versions.map((v) => v.name);
  const incidents = await fromTracker(() =>
    incidentsByVersion(jira, config.incidentJql, [...new Set(names)]),
  );
  const known = new Set(names);
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
    ...versions.map((v) => row(v.name, v.released === true, v.releaseDate ?? null)),
    // OQ builds of a release Jira no longer lists (deleted, another project) still count.
    ...[...oq.byVersion.keys()].filter((name) => !known.has(name)).map((n) => row(n, null, null)),
  ].sort((a, b) => compareVersions(a.releaseVersion, b.releaseVersion));
  const demoJira = trackers.demo.jira;
  const releaseVersions: ReleaseSource[] = [
    { kind: "jira", demo: demoJira, detail: `versions of Jira project ${project}` },
  ];
  if (rows.length > versions.length)
    releaseVersions.push({
      kind: "builds",
      demo: false,
      detail: "Jira releases named by OQ builds that Jira's project no longer lists",
    });
  return {
    rows: releasesInView(rows, view),
    view,
    sources: {
      releaseVersions,
      totalOQ: oq.sources,
      incidents: [
        {
          kind: "jira",
          demo: demoJira,
          detail: `issues of '${config.incidentJql}' per fixVersion; closed: Jira's Done status category`,
        },
      ],
    },
    notes: oq.notes,
    releaseNotesConfigured: config.releaseNotesUrl !== undefined,
    generatedAt: now.toISOString(),
  };
}
