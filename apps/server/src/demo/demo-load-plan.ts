import type { Rng } from "./prng.js";
import type { LoadProfile, PlannedRun } from "./demo-run-types.js";
import { MINUTE, runKey } from "./demo-schedule.js";
import { HUMANS } from "./demo-vocabulary.js";

/** Load runs, with the teams, files and environments of the example catalogue. */
const LOAD_PROFILES: readonly LoadProfile[] = [
  {
    team: "NextGen",
    testFile: "locustfiles/nextgen/patient_login.py",
    env: "nextgen-global-dev1",
    host: "https://dev1.global.nextgen.example.com",
    endpoints: [
      ["POST", "/api/v2/auth/otp", 120],
      ["POST", "/api/v2/auth/token", 180],
      ["GET", "/api/v2/patients/me", 60],
      ["GET", "/api/v2/studies/current", 45],
    ],
  },
  {
    team: "NextGen",
    testFile: "locustfiles/nextgen/diary_submission.py",
    env: "nextgen-global-stage",
    host: "https://stage.global.nextgen.example.com",
    endpoints: [
      ["GET", "/api/v2/diaries/today", 70],
      ["POST", "/api/v2/diaries/entries", 210],
      ["GET", "/api/v2/diaries/history", 95],
    ],
  },
  {
    team: "Legacy",
    testFile: "locustfiles/legacy/site_user_login.py",
    env: "legacy-dev",
    host: "https://dev.legacy.example.com",
    endpoints: [
      ["GET", "/login", 35],
      ["POST", "/login", 240],
      ["GET", "/dashboard", 310],
      ["GET", "/subjects", 420],
    ],
  },
  {
    team: "Data Harmonization 3",
    testFile: "locustfiles/dh3/fhir_ingest.py",
    env: "dev1-us-w2-cloudhub",
    host: "https://dev1-us-w2.cloudhub.example.com",
    endpoints: [
      ["POST", "/fhir/Bundle", 480],
      ["GET", "/fhir/Patient", 150],
      ["GET", "/fhir/Observation", 190],
    ],
  },
];

const LOAD_REGIONS = ["us-west-2", "eu-central-1", "ap-southeast-1"] as const;

/** What the load plan needs of the planner. */
export interface PlanClock {
  lastDay: number;
  at(day: number, minute: number): Date;
  rng(...parts: (string | number)[]): Rng;
}

const SHAPES = [
  { users: 20, runTime: "5m", seconds: 300, spawnRate: 0.2 },
  { users: 50, runTime: "10m", seconds: 600, spawnRate: 1 },
  { users: 100, runTime: "15m", seconds: 900, spawnRate: 2 },
] as const;

/** A load run every second day, counted back from the last day, by the people on the team. */
export function loadRunsOf(p: PlanClock): PlannedRun[] {
  const runs: PlannedRun[] = [];
  for (let day = p.lastDay; day >= 0; day -= 2) {
    const rng = p.rng("load", day);
    const profile = LOAD_PROFILES[(p.lastDay - day) % LOAD_PROFILES.length]!;
    const shape = rng.pick(SHAPES);
    const start = p.at(day, 6 * 60 + rng.int(0, 50));
    const badDay = rng.chance(0.15);
    runs.push({
      key: runKey("load", start, rng),
      family: "load",
      kind: "load",
      format: "locust",
      name: `${profile.team} ${profile.testFile.split("/").pop()} ${start.toISOString().slice(0, 10)}`,
      start,
      end: new Date(start.getTime() + shape.seconds * 1000 + MINUTE),
      executor: rng.pick(HUMANS),
      env: profile.env,
      branch: "master",
      commit: rng.hex(10),
      chinaRegion: false,
      results: [],
      load: {
        profile,
        users: shape.users,
        runTime: shape.runTime,
        durationSeconds: shape.seconds,
        spawnRate: shape.spawnRate,
        region: rng.pick(LOAD_REGIONS),
        failureRate: badDay ? 0.02 + rng.float() * 0.05 : rng.float() * 0.002,
        slowdown: badDay ? 1.8 + rng.float() : 0.9 + rng.float() * 0.3,
      },
    });
  }
  return runs;
}
