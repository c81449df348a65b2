import type { AttachmentInput, StepInput } from "@assay/core";
import { durationMs, type AllureAttachment, type AllureStep } from "./allure-model.js";
import { ReportError } from "./types.js";

/** Far more steps than one readable test has; bounds the work a hostile file causes. */
export const MAX_STEPS_PER_TEST = 10_000;

/** Finds an attachment's file in the upload, or undefined when the source is unsafe or absent. */
export type SourceResolver = (source: string) => string | undefined;

/** A source is a file name in the results folder: no folders, no drive, no scheme, no `..`. */
const PLAIN_FILE_NAME = /^(?!\.\.?$)[^/\\:\0]+$/;

/**
 * Resolves `source` against the folder of the JSON file that names it. Anything but a plain file
 * name of the same upload (`../../etc/passwd`, `/etc/passwd`, `C:\boot.ini`, `file:///x`, URLs)
 * is dropped: the server must never open a path a report chose.
 */
export function sourceResolver(
  jsonFileName: string,
  has: (name: string) => boolean,
): SourceResolver {
  const folder = jsonFileName.slice(0, jsonFileName.lastIndexOf("/") + 1);
  return (source) => {
    if (!PLAIN_FILE_NAME.test(source)) return undefined;
    const path = folder + source;
    return has(path) ? path : undefined;
  };
}

/** Steps and attachments of one test, filled in report order. */
export class StepCollector {
  readonly steps: StepInput[] = [];
  readonly attachments: AttachmentInput[] = [];

  constructor(private readonly fileName: string) {}

  /** Adds steps depth-first: a step, then its own steps, each as one flat entry. */
  addSteps(
    steps: readonly AllureStep[] | null | undefined,
    resolve: SourceResolver,
    before: boolean,
  ): void {
    for (const step of steps ?? []) this.addStep(step, resolve, before);
  }

  /** Attachments that belong to a step get its index; the test's own get none. */
  addAttachments(
    attachments: readonly AllureAttachment[] | null | undefined,
    resolve: SourceResolver,
    stepIndex?: number,
  ): void {
    for (const attachment of attachments ?? []) {
      const path = resolve(attachment.source);
      if (!path) continue;
      this.attachments.push({
        name: attachment.name || attachment.source,
        path,
        ...(attachment.type ? { content_type: attachment.type } : {}),
        ...(stepIndex !== undefined ? { step_index: stepIndex } : {}),
      });
    }
  }

  private addStep(step: AllureStep, resolve: SourceResolver, before: boolean): void {
    // allure-js 3 records an attachment made inside a step as a status-less child step that
    // only holds it: that is a screenshot after the last step so far, not a step of its own.
    if (!step.status && !step.steps?.length && step.attachments?.length) {
      const last = this.steps.length - 1;
      this.addAttachments(step.attachments, resolve, last >= 0 ? last : undefined);
      return;
    }
    if (this.steps.length >= MAX_STEPS_PER_TEST) {
      throw new ReportError(
        this.fileName,
        `a test has more than ${MAX_STEPS_PER_TEST} steps; Assay keeps at most that many`,
      );
    }
    const index = this.steps.length;
    const duration = durationMs(step.start, step.stop);
    this.steps.push({
      action: step.name ?? "",
      passed: stepPassed(step.status),
      ...(duration !== undefined ? { duration_ms: duration } : {}),
      before,
    });
    this.addAttachments(step.attachments, resolve, index);
    this.addSteps(step.steps, resolve, before);
  }
}

/** passed → true, failed/broken → false, skipped or unknown (not run) → null. */
export function stepPassed(status: string | null | undefined): boolean | null {
  if (status === "passed") return true;
  if (status === "failed" || status === "broken") return false;
  return null;
}

/** True when a fixture failed, which makes every test it set up fail with its error. */
export function isFailure(status: string | null | undefined): boolean {
  return status === "failed" || status === "broken";
}
