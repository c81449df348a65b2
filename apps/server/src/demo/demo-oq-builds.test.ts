import { describe, expect, it } from "vitest";
import { DEMO_OQ_RELEASES, demoOqRuns } from "./demo-oq-builds.js";
import { buildPlan } from "./demo-plan.js";

/** Which demo runs the demo's OQ builds ran: stage NextGen daily runs, spread, oldest first. */

describe("demo OQ builds", () => {
  it("are 9 stage NextGen daily runs six days apart, with their releases in order", () => {
    const plan = buildPlan({ days: 60, tests: 60, seed: 3, now: new Date("2026-11-26T15:00:00Z") });
    const oq = demoOqRuns(plan.runs);
    expect(oq.map((o) => o.version)).toEqual([...DEMO_OQ_RELEASES]);
    for (const { run } of oq) {
      expect(run).toMatchObject({
        kind: "daily",
        suite: "nextGen",
        site: "stage.nextgen.example.com",
      });
    }
    const days = oq.map(({ run }) => run.start.getTime() / 86_400_000);
    for (let i = 1; i < days.length; i++) expect(Math.round(days[i]! - days[i - 1]!)).toBe(6);
  });

  it("takes what a short plan has", () => {
    const plan = buildPlan({ days: 3, tests: 40, seed: 7, now: new Date("2026-03-10T15:00:00Z") });
    expect(demoOqRuns(plan.runs).map((o) => o.version)).toEqual(["7.2.0"]);
  });
});
