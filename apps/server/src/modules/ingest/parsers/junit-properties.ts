import type { AttachmentInput, ResultInput, StepInput } from "@assay/core";
import { attachmentFrom, type Property } from "./junit-fields.js";

/*
 * <property> elements (suite and testcase level) as Assay sees them: the testmoapp/junitxml
 * conventions `attachment*` and `step*`, well-known names that fill result fields, and the rest
 * kept as the result's properties.
 */

const ATTACHMENT_PROPERTY = /^attachment\d*$/i;
const STEP_PROPERTY = /^step\d*(?:\[(\w+)\])?$/i;

/** True for the properties that become attachments or steps rather than properties. */
export function isSpecialProperty(name: string, value: string): boolean {
  if (STEP_PROPERTY.test(name)) return true;
  return ATTACHMENT_PROPERTY.test(name) && attachmentFrom(value) !== undefined;
}

/** `attachment`, `attachment1`, ... properties that name a file of the upload or inline data. */
export function propertyAttachments(properties: readonly Property[]): AttachmentInput[] {
  const attachments: AttachmentInput[] = [];
  for (const [name, value] of properties) {
    const attachment = ATTACHMENT_PROPERTY.test(name) ? attachmentFrom(value) : undefined;
    if (attachment) attachments.push(attachment);
  }
  return attachments;
}

/**
 * `step`, `step1`, `step[passed]`, ... properties as steps. A step without a status passed when
 * the test passed and is unknown (null) otherwise: the report does not say which step failed.
 */
export function propertySteps(properties: readonly Property[], passed: boolean): StepInput[] {
  const steps: StepInput[] = [];
  for (const [name, value] of properties) {
    const match = STEP_PROPERTY.exec(name);
    if (!match) continue;
    const status = match[1]?.toLowerCase();
    const stepPassed =
      status === "passed"
        ? true
        : status === "failure" || status === "failed" || status === "error"
          ? false
          : status === undefined && passed
            ? true
            : null;
    steps.push({ action: value.trim(), passed: stepPassed });
  }
  return steps;
}

type MappedField =
  | "commit_hash"
  | "branch"
  | "version"
  | "chrome_version"
  | "platform"
  | "executor"
  | "baseurl"
  | "nora_site";

/** Property names (lower case) that fill a result field as well as staying a property. */
const FIELD_OF_PROPERTY = new Map<string, MappedField>([
  ["commit", "commit_hash"],
  ["commit_hash", "commit_hash"],
  ["git.commit", "commit_hash"],
  ["git_commit", "commit_hash"],
  ["branch", "branch"],
  ["git.branch", "branch"],
  ["git_branch", "branch"],
  ["version", "version"],
  ["app.version", "version"],
  ["app_version", "version"],
  ["chrome_version", "chrome_version"],
  ["chrome.version", "chrome_version"],
  ["browser_version", "chrome_version"],
  ["browser.version", "chrome_version"],
  ["platform", "platform"],
  ["os", "platform"],
  ["os.name", "platform"],
  ["executor", "executor"],
  ["baseurl", "baseurl"],
  ["base_url", "baseurl"],
  ["nora_site", "nora_site"],
]);

// WebdriverIO's `capabilities` property: "<browser>.<version with _ for .>.<platform>".
const WDIO_CAPABILITIES = /^(chrome|chromium|[a-z]+)\.(\d+(?:_\d+)*)\.(\w+)$/i;

export type PropertyFields = Partial<Pick<ResultInput, MappedField>>;

/**
 * Result fields from well-known properties, added to those of the properties before them: later
 * properties win over earlier ones.
 */
function addPropertyFields(fields: PropertyFields, properties: readonly Property[]): void {
  for (const [name, value] of properties) {
    const trimmed = value.trim();
    if (!trimmed) continue;
    const field = FIELD_OF_PROPERTY.get(name.toLowerCase());
    if (field) fields[field] = trimmed;
    const caps = name === "capabilities" ? WDIO_CAPABILITIES.exec(trimmed) : null;
    if (caps?.[2] && caps[3]) {
      if (/^chrom/i.test(caps[1] ?? "")) fields.chrome_version = caps[2].replace(/_/g, ".");
      fields.platform = caps[3];
    }
  }
}

/**
 * Adds one level of properties inside those merged so far: an inner level's value replaces an
 * outer one, while a name repeated within one level keeps every value, one per line.
 */
function mergeProperties(merged: Map<string, string>, level: readonly Property[]): void {
  const byName = new Map<string, string[]>();
  for (const [name, value] of level) {
    if (isSpecialProperty(name, value)) continue;
    const values = byName.get(name);
    if (values) values.push(value);
    else byName.set(name, [value]);
  }
  for (const [name, values] of byName) merged.set(name, values.join("\n"));
}

/**
 * What levels of properties say, from the outermost (enclosing suites) to the innermost (the
 * testcase): the properties as a record and the result fields they fill. Kept per suite, so that
 * a testcase adds only its own level instead of reading every suite again.
 */
export interface LevelProperties {
  merged: ReadonlyMap<string, string>;
  /** `merged` as a plain record; undefined when there are no properties. */
  record: Record<string, string> | undefined;
  fields: PropertyFields;
}

export const NO_PROPERTIES: LevelProperties = { merged: new Map(), record: undefined, fields: {} };

/** `outer` with one more level inside it (a suite's, or the testcase's). */
export function withLevel(outer: LevelProperties, level: readonly Property[]): LevelProperties {
  if (!level.length) return outer;
  const merged = new Map(outer.merged);
  mergeProperties(merged, level);
  const fields = { ...outer.fields };
  addPropertyFields(fields, level);
  // fromEntries defines own properties, so a property named "__proto__" stays plain data.
  const record = merged.size ? Object.fromEntries(merged) : undefined;
  return { merged, record, fields };
}
