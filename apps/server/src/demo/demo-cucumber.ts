import type { PlannedResult, PlannedRun } from "./demo-run-types.js";
import { screenshotBase64, type ScreenshotPlatform } from "./demo-png.js";
import { DEMO_CHROME_VERSION, DEMO_PLATFORM } from "./demo-vocabulary.js";
import { backgroundSteps, failingStep, mainSteps, uiStack, type UiStep } from "./demo-ui-steps.js";

/*
 * A Cucumber JSON report as cucumber-js `--format json` writes it: features with their
 * scenarios, hidden Before/After hooks, Background steps (lines above the scenario's line),
 * durations in nanoseconds and screenshots embedded as base64 PNG on the step that took them.
 */

const NS_PER_MS = 1_000_000;
const BACKGROUND_LINES = [4, 5];

/** As cucumber-js writes an embedding: no name (Assay describes it by its step). */
interface Embedding {
  data: string;
  mime_type: string;
}

interface CucumberStep {
  keyword: string;
  name?: string;
  line?: number;
  hidden?: boolean;
  match: { location: string };
  result: { status: string; duration: number; error_message?: string };
  embeddings?: Embedding[];
}

function hook(keyword: "Before" | "After", ms: number): CucumberStep {
  return {
    keyword,
    hidden: true,
    match: { location: "support/hooks.ts:9" },
    result: { status: "passed", duration: ms * NS_PER_MS },
  };
}

function gherkin(step: UiStep, line: number, status: string, ms: number): CucumberStep {
  return {
    keyword: step.keyword,
    name: step.text,
    line,
    match: { location: step.location },
    result: { status, duration: Math.round(ms * NS_PER_MS) },
  };
}

function scenarioSteps(result: PlannedResult, site: string, line: number): CucumberStep[] {
  const { test } = result;
  const attempt = result.attempts[result.attempts.length - 1]!;
  const platform: ScreenshotPlatform = test.suite === "legacy" ? "legacy" : "nextGen";
  const main = mainSteps(test);
  const failAt = attempt.passed ? -1 : failingStep(test);
  // The hooks and Background take a fifth of the time; the failing step takes its timeout.
  const setupMs = attempt.durationMs * 0.2;
  const stepMs = (attempt.durationMs - setupMs) / main.length;
  const steps: CucumberStep[] = [
    hook("Before", setupMs * 0.2),
    ...backgroundSteps(test, site).map((s, i) =>
      gherkin(s, BACKGROUND_LINES[i]!, "passed", setupMs * 0.35),
    ),
  ];
  main.forEach((s, i) => {
    const status = failAt < 0 || i < failAt ? "passed" : i === failAt ? "failed" : "skipped";
    // The failing step waited for its timeout: it takes the time the skipped ones did not.
    const ms = status === "passed" ? stepMs : status === "failed" ? stepMs * (main.length - i) : 0;
    const step = gherkin(s, line + 1 + i, status, ms);
    const embeddings: Embedding[] = [];
    if (result.stepScreenshots && status !== "skipped") {
      embeddings.push({
        data: screenshotBase64(platform, i),
        mime_type: "image/png",
      });
    }
    if (status === "failed") {
      step.result.error_message = uiStack(test, attempt.message ?? "failed");
      if (result.errorScreenshot) {
        embeddings.push({
          data: screenshotBase64(platform, i, true),
          mime_type: "image/png",
        });
      }
    }
    if (embeddings.length > 0) step.embeddings = embeddings;
    steps.push(step);
  });
  steps.push(hook("After", 40));
  return steps;
}

/** The report of a planned UI run; one feature per feature file, scenarios in id order. */
export function cucumberReport(run: PlannedRun): string {
  const site = run.site ?? "";
  const byFile = new Map<string, PlannedResult[]>();
  for (const result of run.results) {
    const list = byFile.get(result.test.file) ?? [];
    list.push(result);
    byFile.set(result.test.file, list);
  }
  const features = [...byFile].map(([uri, results]) => {
    const feature = results[0]!.test.area.feature;
    const featureId = feature.toLowerCase().replace(/[^a-z0-9]+/g, "-");
    return {
      uri,
      id: featureId,
      keyword: "Feature",
      name: feature,
      line: 1,
      description: "",
      tags: [],
      // As wdio-cucumberjs-json-reporter writes it: the browser and platform of the run.
      metadata: {
        browser: { name: "chrome", version: DEMO_CHROME_VERSION },
        device: "Local test machine",
        platform: { name: DEMO_PLATFORM, version: "Debian 12" },
      },
      elements: results
        .sort((a, b) => a.test.id - b.test.id)
        .map((result, index) => {
          const line = 8 + index * 6;
          const { test } = result;
          return {
            id: `${featureId};${test.scenario.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`,
            keyword: "Scenario",
            name: test.scenario,
            line,
            type: "scenario",
            description: "",
            start_timestamp: result.start.toISOString(),
            tags: [...test.tags, `@TC${test.id}`].map((name) => ({ name, line: line - 1 })),
            steps: scenarioSteps(result, site, line),
          };
        }),
    };
  });
  return JSON.stringify(features);
}
