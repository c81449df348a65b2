import { Rng } from "./prng.js";
import type { DemoTest } from "./demo-tests.js";

/** The steps of a demo UI scenario, as Cucumber and the JUnit step properties write them. */

export interface UiStep {
  keyword: string;
  text: string;
  /** step_definitions file:line, as cucumber-js reports a step's match. */
  location: string;
}

const STUDIES = ["ONC-204", "CARD-117", "NEURO-031", "DERM-552"];
const CHECKS = [
  "the confirmation message is shown",
  "the list shows the change",
  "the audit trail records the change",
  "no error banner is shown",
  "the page matches the approved layout",
  "the data is saved after a reload",
];

/** Background steps: the "before steps" of the detail dialog. */
export function backgroundSteps(test: DemoTest, site: string): UiStep[] {
  const study = STUDIES[test.id % STUDIES.length];
  return [
    {
      keyword: "Given ",
      text: `I open the site "${site}"`,
      location: "steps/navigation.steps.ts:12",
    },
    {
      keyword: "And ",
      text: `I sign in to the study "${study}"`,
      location: "steps/auth.steps.ts:27",
    },
  ];
}

/** The scenario's own steps: a setup, the action of its title, then two checks. */
export function mainSteps(test: DemoTest): UiStep[] {
  const rng = Rng.for("steps", test.id);
  const folder = test.area.folder;
  const action = test.scenario.charAt(0).toLowerCase() + test.scenario.slice(1);
  const [first, second] = rng.shuffle(CHECKS);
  return [
    {
      keyword: "Given ",
      text: `the ${test.area.feature.toLowerCase()} data of the study is prepared`,
      location: `steps/${folder}.steps.ts:${rng.int(10, 40)}`,
    },
    {
      keyword: "When ",
      text: `the ${action}`,
      location: `steps/${folder}.steps.ts:${rng.int(41, 90)}`,
    },
    { keyword: "Then ", text: first!, location: `steps/common.steps.ts:${rng.int(10, 60)}` },
    { keyword: "And ", text: second!, location: `steps/common.steps.ts:${rng.int(61, 120)}` },
  ];
}

/** Which main step a failing test fails on: the action itself, or one of the checks. */
export function failingStep(test: DemoTest): number {
  return 1 + (test.id % 3);
}

/** A JavaScript stack under a UI failure message. */
export function uiStack(test: DemoTest, message: string): string {
  const line = 20 + (test.id % 70);
  return [
    message,
    `    at World.<anonymous> (steps/${test.area.folder}.steps.ts:${line}:11)`,
    "    at processTicksAndRejections (node:internal/process/task_queues:95:5)",
  ].join("\n");
}
