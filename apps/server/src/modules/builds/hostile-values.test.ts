import { existsSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { BuildList } from "@assay/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  buildBuildApp,
  insertBuildUser,
  runnerReport,
  RUNNER_ARGV,
  type BuildApp,
} from "../../../test/build-apps.js";
import { campaignShare, inShare } from "../../../test/campaign-share.js";
import { hostileValues } from "../../../test/hostile-values.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";
import { envNameOf, payloadEnv } from "./build-env.js";

/**
 * The hostile-value campaign: every value through every field of every build list, end to end.
 * Each is refused with a 400 that says why, or reaches the runner unchanged as an environment
 * variable; the runner's argv is always the configured one, and no other process ever starts.
 * CI's two server passes each send one half of the cells (CAMPAIGN_SHARE, campaign-share.ts);
 * a local run sends them all.
 */

const canary = path.join(tmpdir(), `assay-hostile-canary-${process.pid}`);
const VALUES = hostileValues(canary);

const VALID: Record<BuildList, Record<string, unknown>> = {
  frontend: { nora_site: "dev1.example.com", branch: "master" },
  china: { nora_site: "dev1.example.com", branch: "master" },
  backend: { env: "dev1", branch: "master" },
  load: {
    env: "dev1",
    branch: "master",
    testFile: "nextgen/a.py",
    runTime: "5m",
    users: 20,
    spawnRate: 0.2,
    loadRegion: "us-west-2",
  },
};
const FRONTEND_FIELDS = [
  "branch",
  "tag",
  "subSet",
  "dynamicTag",
  "nora_site",
  "database_host",
  "parallel_runners",
  "executor",
  "enable_coverage",
  "mode",
  "isNextGen",
  "releaseId",
  "jiraRelease",
  "translationLanguageCode",
  "translationReportToEmail",
  "numberOfPatientsCreated",
  "spiraCredentialsString",
];
const FIELDS: Record<BuildList, string[]> = {
  frontend: FRONTEND_FIELDS,
  // The China list parses with the frontend's schema; its own route is checked on two fields.
  china: ["branch", "nora_site"],
  backend: ["mode", "parallel_runners", "branch", "env", "tag", "subSet", "executor"],
  load: [
    "runType",
    "branch",
    "env",
    "host",
    "testFile",
    "runTime",
    "spawnRate",
    "users",
    "loadRegion",
    "query",
    "team",
    "executor",
  ],
};
const PATHS: Record<BuildList, string> = {
  frontend: "/v1/builds",
  china: "/v1/china/builds",
  backend: "/v1/api/builds",
  load: "/v1/load/builds",
};
/**
 * Every value in every field of every list. A share takes, in each field, every n-th value from
 * an offset that moves on by one per field: each value is sent in every share (in other fields)
 * and each share stays a spread of the whole list, whatever its length.
 */
const CELLS = (Object.keys(FIELDS) as BuildList[])
  .flatMap((list) => FIELDS[list].map((field) => ({ list, field })))
  .flatMap(({ list, field }, f) =>
    VALUES.map((value, v) => ({ list, field, value, v, deal: f + v })),
  );
const SHARE = campaignShare();

let database: TestDatabase;
let app: BuildApp;

beforeAll(async () => {
  database = await createTestDatabase();
  app = await buildBuildApp(database, {
    user: await insertBuildUser(database),
    startWorkers: false,
    builds: `builds:\n  rateLimit: { builds: 10000, perMinutes: 1 }\n  localConcurrency: 16\n  executors:\n${(
      ["frontend", "china", "backend", "load"] as const
    )
      .map((list) => `    ${list}: { kind: local, command: ${JSON.stringify(RUNNER_ARGV)} }`)
      .join("\n")}\n`,
  });
});
afterAll(async () => {
  await app?.close();
  await database.drop();
});

const PER_FIELD = 6;
const HOSTILE = /[;$`|&<>(){}'"\\*?!~#%]|--|\.\.|\p{L}/u;

/** Up to PER_FIELD accepted values per variable, the most hostile (metacharacters, long) first. */
function pickHostile<T extends { variable: string; expected: string }>(accepted: T[]): T[] {
  const score = (value: string) => (HOSTILE.test(value) ? 2 : 0) + (value.length > 1000 ? 1 : 0);
  const byVariable = new Map<string, T[]>();
  for (const entry of accepted)
    byVariable.set(entry.variable, [...(byVariable.get(entry.variable) ?? []), entry]);
  return [...byVariable.values()].flatMap((entries) =>
    [...entries].sort((a, b) => score(b.expected) - score(a.expected)).slice(0, PER_FIELD),
  );
}

/** What the runner must find in the field's variable, when the value is accepted. */
function asEnv(value: unknown): string {
  return Array.isArray(value) ? value.map(String).join(",") : String(value);
}

async function waitAllEnded(): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const { rows } = await database.db.pool.query(
      "SELECT count(*) AS n FROM builds WHERE build_status = 'IN_PROGRESS'",
    );
    if (Number(rows[0].n) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("builds did not end");
}

describe("hostile-value campaign", () => {
  it("deals every cell to exactly one of CI's two shares, and every value to both", () => {
    const shares = ["1/2", "2/2"].map((share) =>
      CELLS.filter((cell) => inShare(cell.deal, campaignShare(share))),
    );
    expect(new Set(shares.flat()).size).toBe(CELLS.length);
    expect(shares.flat()).toHaveLength(CELLS.length);
    for (const share of shares) {
      expect(new Set(share.map((cell) => cell.v)).size).toBe(VALUES.length);
      expect(share.length).toBeLessThanOrEqual(Math.ceil(CELLS.length / 2));
    }
    expect(campaignShare("")).toEqual({ index: 1, count: 1 });
    expect(() => campaignShare("3/2")).toThrow(/CAMPAIGN_SHARE/);
  });

  it(`refuses or passes unchanged ${VALUES.length} values in every field of every list (share ${SHARE.index}/${SHARE.count})`, async () => {
    expect(VALUES.length).toBeGreaterThanOrEqual(250);
    const accepted: { id: number; variable: string; expected: string }[] = [];
    let refused = 0;
    for (const { list, field, value } of CELLS.filter((cell) => inShare(cell.deal, SHARE))) {
      const body = JSON.stringify({ ...VALID[list], [field]: value });
      const res = await app.app.inject({
        method: "POST",
        url: PATHS[list],
        payload: body,
        headers: { "content-type": "application/json" },
      });
      if (res.statusCode === 201) {
        const sent = JSON.parse(body)[field];
        // An empty value of a field the build does not need reads as absent (issue 32):
        // the empty text is never recorded (absent, or the field's default, as executor's).
        if (sent === "" || sent === null) {
          expect(res.json().build.payload[field], `${list}.${field}`).not.toBe(sent);
          continue;
        }
        accepted.push({
          id: res.json().build.id,
          variable: field === "tag" ? "TEST_TAG" : envNameOf(field),
          expected: asEnv(sent),
        });
        continue;
      }
      expect(res.statusCode, `${list}.${field} = ${JSON.stringify(value).slice(0, 80)}`).toBe(400);
      const error = res.json().error;
      // NUL is refused for every route by http/control-characters.ts, before the schemas.
      expect(["invalid_build", "invalid_request", "control_character"]).toContain(error.code);
      expect(error.message.length).toBeGreaterThan(5);
      refused++;
    }
    // Most values are refused; the free-text fields (executor, sub set, DB query...) take many.
    expect(refused).toBeGreaterThan(accepted.length);

    // Every accepted value is recorded as sent and becomes the runner's variable unchanged.
    for (const { id, variable, expected } of accepted) {
      const { payload } = (await app.app.inject({ method: "GET", url: `/v1/builds/${id}` })).json();
      expect(payloadEnv(payload)[variable], `${variable} of build ${id}`).toBe(expected);
    }
    // The most hostile accepted values of each field run for real (a process each would be
    // thousands): the runner gets the value unchanged and the configured argv; the rest are
    // stopped before they start.
    const run = pickHostile(accepted);
    const ids = run.map((a) => a.id);
    for (let i = 0; i < ids.length; i += 8) {
      // Started by hand (no job workers here): a batch waits for slots, as a start job would.
      while (app.app.buildRunner.freeLocalSlots() < 8)
        await new Promise((resolve) => setTimeout(resolve, 50));
      await Promise.all(ids.slice(i, i + 8).map((id) => app.app.buildRunner.start(id)));
    }
    await database.db.pool.query(
      "UPDATE builds SET build_status = 'STOPPED', current_phase = 'COMPLETED' WHERE NOT (id = ANY($1::bigint[]))",
      [ids],
    );
    await waitAllEnded();
    for (const { id, variable, expected } of run) {
      const { log } = (await app.app.inject({ method: "GET", url: `/v1/builds/${id}` })).json();
      expect(log.text.match(/^RUNNER /gm), `build ${id}`).toHaveLength(1);
      const report = runnerReport(log.text);
      expect(report.argv).toEqual(RUNNER_ARGV.slice(2));
      expect(report.env.ASSAY_BUILD_ID).toBe(String(id));
      expect(report.env[variable], `${variable} of build ${id}`).toBe(expected);
    }
    // No shell ever ran a value, and no runner is left behind.
    expect(existsSync(canary)).toBe(false);
    const leftovers = readdirSync("/proc").filter((pid) => {
      try {
        return (
          /^\d+$/.test(pid) &&
          readFileSync(`/proc/${pid}/environ`, "latin1").includes(`ASSAY_URL=${app.url}\0`)
        );
      } catch {
        return false;
      }
    });
    expect(leftovers).toEqual([]);
    expect(run.length).toBeGreaterThan(50);
  }, 600_000);
});
