import {
  FRONTEND_RUN_TYPES,
  DEFAULT_BRANCH,
  DEFAULT_PARALLEL_RUNNERS,
  DEFAULT_RUN_TYPE,
  OTHER_OPTION_VALUE,
  STAGE_BRANCH,
  type BuildRegion,
  type Catalog,
  type FrontendBuildInput,
  type FrontendRunType,
  type SiteOption,
  type TestSubset,
} from "@assay/core";

/**
 * The Frontend Create Build dialog's form (spec sections 2, 4 and 9) and how it becomes the
 * payload of section 3. The rules and messages are core's `frontendBuildSchema`; this file
 * only holds what the form shows and the switches that reset other fields.
 */

export type Platform = "legacy" | "nextGen";

export interface FrontendForm {
  runType: FrontendRunType;
  parallelRunners: number;
  branch: string;
  /** Selected tags (By Test Tags), in order of selection. */
  tags: string[];
  /** Name of the chosen sub set (By Sub Set). */
  subSet: string;
  /** Name of the chosen dynamic tag (By Dynamic Tags). */
  dynamicTag: string;
  platform: Platform;
  /** Only for NextGen; CHINA sends the build to the China-region service. */
  region: BuildRegion;
  site: string;
  customSite: string;
  /** "" keeps the site's own database; OTHER_OPTION_VALUE asks for a custom host. */
  databaseHost: string;
  customDatabaseHost: string;
  /** Translation report recipients, comma separated as typed. */
  emails: string;
  /** Selected translation locales (translationCode). */
  languages: string[];
  numberOfPatients: string;
  /** OQ: the Spira release (its ReleaseId as text, "" for none) and the Jira release name. */
  releaseId: string;
  jiraRelease: string;
}

/** Run types in the order of the radio group, with the spec's labels. */
export const FRONTEND_RUN_TYPE_LABEL: Record<FrontendRunType, string> = {
  run_all: "All Tests",
  by_tags: "By Test Tags",
  by_sub_set: "By Sub Set",
  by_dynamic_tags: "By Dynamic Tags",
  oq_test: "OQ Test",
  translation_test: "Translation Test",
  bulk_image_upload: "Bulk Image Upload",
};

/** Translation runs use branch stage, one runner and the stage site (spec sections 5 and 9). */
export const isStageRun = (runType: FrontendRunType) => runType === "translation_test";

export function sitesOf(catalog: Catalog, platform: Platform): SiteOption[] {
  return catalog.sites[platform];
}

/** The platform's stage site: the first whose name or host says stage. */
export function stageSite(catalog: Catalog, platform: Platform): string {
  const sites = sitesOf(catalog, platform);
  const stage = sites.find((site) => /stage/i.test(`${site.label} ${site.value}`));
  return (stage ?? sites[0]!).value;
}

export function subsetsOf(catalog: Catalog, platform: Platform): TestSubset[] {
  return catalog.testSubsets[platform];
}

/** Sub set labels show name and count with '+' (spec section 9). */
export function subsetLabel(subset: TestSubset): string {
  return `${subset.name} + ${subset.count}`;
}

/** The tags the tag field suggests and accepts: the catalogue's major and sub set tags. */
export function knownTags(catalog: Catalog, platform: Platform | "api"): string[] {
  const tags = [...catalog.majorTags, ...catalog.testSubsets[platform].flatMap((s) => s.tags)];
  return [...new Set(tags.map((tag) => tag.toLowerCase()))].sort();
}

/** The China service runs NextGen only: a dialog opened from the China list starts there. */
export function initialFrontendForm(
  catalog: Catalog,
  handedTags: readonly string[],
  listRegion: BuildRegion = "US",
): FrontendForm {
  if (listRegion === "CHINA") {
    const form = initialFrontendForm(catalog, handedTags);
    return { ...withPlatform(form, catalog, "nextGen"), region: "CHINA" };
  }
  return {
    // An incoming tag list switches the dialog to By Test Tags (spec section 4).
    runType: handedTags.length > 0 ? "by_tags" : DEFAULT_RUN_TYPE,
    parallelRunners: DEFAULT_PARALLEL_RUNNERS,
    branch: DEFAULT_BRANCH,
    tags: [...handedTags],
    subSet: "",
    dynamicTag: "",
    platform: "legacy",
    region: catalog.buildRegions.default,
    site: sitesOf(catalog, "legacy")[0]!.value,
    customSite: "",
    databaseHost: "",
    customDatabaseHost: "",
    emails: "",
    languages: [],
    numberOfPatients: "",
    releaseId: "",
    jiraRelease: "",
  };
}

/** The platform switch resets the site to the platform's first and clears the languages. */
export function withPlatform(
  form: FrontendForm,
  catalog: Catalog,
  platform: Platform,
): FrontendForm {
  const site = isStageRun(form.runType)
    ? stageSite(catalog, platform)
    : sitesOf(catalog, platform)[0]!.value;
  return { ...form, platform, site, languages: [], subSet: "" };
}

/** A translation run forces branch stage, one runner and the stage site. */
export function withRunType(
  form: FrontendForm,
  catalog: Catalog,
  runType: FrontendRunType,
): FrontendForm {
  if (isStageRun(runType)) {
    return {
      ...form,
      runType,
      branch: STAGE_BRANCH,
      parallelRunners: 1,
      site: stageSite(catalog, form.platform),
    };
  }
  if (isStageRun(form.runType)) {
    return { ...form, runType, branch: DEFAULT_BRANCH };
  }
  return { ...form, runType };
}

const otherOr = (choice: string, custom: string) =>
  choice === OTHER_OPTION_VALUE ? custom.trim() || OTHER_OPTION_VALUE : choice;

const testIdList = (ids: readonly number[]) => ids.map((id) => `TC${id}`).join(",");

/** The payload of spec section 3 for the chosen run type; only that run type's fields go. */
export function frontendPayload(
  form: FrontendForm,
  catalog: Catalog,
  dynamicTagTests: (name: string) => readonly number[] | undefined,
): FrontendBuildInput {
  const payload: FrontendBuildInput = {
    mode: form.runType,
    branch: form.branch.trim(),
    // Other with nothing typed stays "other", which core refuses with its message.
    nora_site: otherOr(form.site, form.customSite),
    parallel_runners: form.parallelRunners,
    isNextGen: form.platform === "nextGen",
  };
  if (form.databaseHost !== "") {
    payload.database_host = otherOr(form.databaseHost, form.customDatabaseHost);
  }
  if (form.runType === "by_tags" && form.tags.length > 0) payload.tag = form.tags.join(",");
  if (form.runType === "by_sub_set" && form.subSet !== "") {
    const subset = subsetsOf(catalog, form.platform).find((s) => s.name === form.subSet);
    if (subset) {
      payload.subSet = subset.name;
      payload.tag = testIdList(subset.testIds);
    }
  }
  if (form.runType === "by_dynamic_tags" && form.dynamicTag !== "") {
    const ids = dynamicTagTests(form.dynamicTag) ?? [];
    payload.dynamicTag = form.dynamicTag;
    if (ids.length > 0) payload.tag = testIdList(ids);
  }
  if (form.runType === "translation_test") {
    payload.translationLanguageCode = form.languages;
    if (form.emails.trim() !== "") payload.translationReportToEmail = form.emails;
  }
  if (form.runType === "oq_test") {
    if (form.releaseId !== "") payload.releaseId = Number(form.releaseId);
    if (form.jiraRelease !== "") payload.jiraRelease = form.jiraRelease;
  }
  if (form.runType === "bulk_image_upload" && form.numberOfPatients.trim() !== "") {
    payload.numberOfPatientsCreated = Number(form.numberOfPatients);
  }
  return payload;
}

const str = (value: unknown) => (typeof value === "string" ? value : "");

/** A site (or database host) as the form's choice: a catalogue entry, else Other with its text. */
function choiceOf(value: string, options: readonly SiteOption[]): [string, string] {
  if (value === "") return ["", ""];
  return options.some((option) => option.value === value)
    ? [value, ""]
    : [OTHER_OPTION_VALUE, value];
}

/**
 * The form a saved build (a schedule's template) was made from: the inverse of frontendPayload,
 * so a schedule's build is edited in the same dialog that made it.
 */
export function frontendFormOf(
  catalog: Catalog,
  payload: Record<string, unknown>,
  region: BuildRegion,
): FrontendForm {
  const base = initialFrontendForm(catalog, [], region);
  const platform: Platform =
    payload.isNextGen === true || region === "CHINA" ? "nextGen" : "legacy";
  const runType = (FRONTEND_RUN_TYPES as readonly string[]).includes(str(payload.mode))
    ? (payload.mode as FrontendRunType)
    : base.runType;
  const [site, customSite] = choiceOf(str(payload.nora_site), sitesOf(catalog, platform));
  const [databaseHost, customDatabaseHost] =
    str(payload.database_host) === "" ? ["", ""] : [OTHER_OPTION_VALUE, str(payload.database_host)];
  const runners = payload.parallel_runners;
  return {
    ...base,
    runType,
    platform,
    region: platform === "nextGen" ? region : base.region,
    parallelRunners: typeof runners === "number" ? runners : base.parallelRunners,
    branch: str(payload.branch) || base.branch,
    tags:
      runType === "by_tags"
        ? str(payload.tag)
            .split(",")
            .filter((tag) => tag !== "")
        : [],
    subSet: str(payload.subSet),
    dynamicTag: str(payload.dynamicTag),
    site: site || sitesOf(catalog, platform)[0]!.value,
    customSite,
    databaseHost,
    customDatabaseHost,
    emails: str(payload.translationReportToEmail),
    languages: Array.isArray(payload.translationLanguageCode)
      ? payload.translationLanguageCode.filter((code): code is string => typeof code === "string")
      : [],
    numberOfPatients:
      typeof payload.numberOfPatientsCreated === "number"
        ? String(payload.numberOfPatientsCreated)
        : "",
    releaseId: typeof payload.releaseId === "number" ? String(payload.releaseId) : "",
    jiraRelease: str(payload.jiraRelease),
  };
}
