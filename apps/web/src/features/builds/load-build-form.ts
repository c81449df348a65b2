import {
  DEFAULT_BRANCH,
  OTHER_OPTION_VALUE,
  type Catalog,
  type LoadBuildInput,
  type LoadRunType,
} from "@assay/core";

/**
 * The Load Create Build dialog's form and its run-type switches (spec section 4 "Load dialog");
 * the rules and the seven messages are core's LoadBuildSchema.
 */

export interface LoadForm {
  runType: LoadRunType;
  env: string;
  customHost: string;
  team: string;
  testFile: string;
  users: string;
  duration: string;
  spawnRate: string;
  location: string;
  branch: string;
  query: string;
}

function firstFileOf(catalog: Catalog, team: string): string {
  return catalog.loadTeams.find((t) => t.name === team)?.testFiles[0]?.value ?? "";
}

/** General: the first env, the team's first file, the default duration and users, no query. */
function generalValues(catalog: Catalog, team: string): Partial<LoadForm> {
  const { loadDefaults } = catalog;
  return {
    runType: "general",
    env: catalog.loadEnvs[0]!.value,
    testFile: firstFileOf(catalog, team),
    duration: loadDefaults.duration,
    users: String(loadDefaults.users),
    query: "",
  };
}

export function initialLoadForm(catalog: Catalog): LoadForm {
  const { loadDefaults } = catalog;
  const form: LoadForm = {
    runType: "general",
    env: "",
    customHost: "",
    team: loadDefaults.team,
    testFile: "",
    users: "",
    duration: "",
    spawnRate: String(loadDefaults.spawnRate),
    location: catalog.loadLocations[0]!.value,
    branch: DEFAULT_BRANCH,
    query: "",
  };
  const general = { ...form, ...generalValues(catalog, loadDefaults.team) };
  return loadDefaults.runType === "custom_db"
    ? withLoadRunType(general, catalog, "custom_db")
    : general;
}

/**
 * Custom DB forces the env that supports DB tests, the custom DB test file (and its team), 2m
 * and 2 users; returning to General resets to the first env, the team's first file, 5m, 20 users
 * and an empty query.
 */
export function withLoadRunType(form: LoadForm, catalog: Catalog, runType: LoadRunType): LoadForm {
  if (runType === "general") return { ...form, ...generalValues(catalog, form.team) };
  const env = catalog.loadEnvs.find((e) => e.supportsDbTest === true)!;
  const team = catalog.loadTeams.find((t) => t.testFiles.some((f) => f.customDb === true))!;
  const file = team.testFiles.find((f) => f.customDb === true)!;
  const { customDb } = catalog.loadDefaults;
  return {
    ...form,
    runType,
    env: env.value,
    team: team.name,
    testFile: file.value,
    duration: customDb.duration,
    users: String(customDb.users),
  };
}

/** Changing team selects the team's first file. */
export function withTeam(form: LoadForm, catalog: Catalog, team: string): LoadForm {
  return { ...form, team, testFile: firstFileOf(catalog, team) };
}

/** A number typed in a field; "" and words become undefined or NaN, which the schema refuses. */
const numberOf = (text: string) => (text.trim() === "" ? undefined : Number(text));

export function loadPayload(form: LoadForm, catalog: Catalog): LoadBuildInput {
  const env = catalog.loadEnvs.find((e) => e.value === form.env);
  const payload = {
    runType: form.runType,
    branch: form.branch.trim(),
    env: form.env,
    testFile: form.testFile,
    runTime: form.duration.trim(),
    spawnRate: numberOf(form.spawnRate),
    users: numberOf(form.users),
    loadRegion: form.location,
    team: form.team,
  } as LoadBuildInput;
  const host = form.env === OTHER_OPTION_VALUE ? form.customHost.trim() : env?.host;
  if (host) payload.host = host;
  if (form.runType === "custom_db") payload.query = form.query;
  return payload;
}

const textOf = (value: unknown, fallback: string) =>
  typeof value === "string" ? value : typeof value === "number" ? String(value) : fallback;

/** The form a saved load build (a schedule's template) was made from: loadPayload's inverse. */
export function loadFormOf(catalog: Catalog, payload: Record<string, unknown>): LoadForm {
  const base = initialLoadForm(catalog);
  const env = textOf(payload.env, base.env);
  const known = catalog.loadEnvs.find((e) => e.value === env);
  return {
    runType: payload.runType === "custom_db" ? "custom_db" : "general",
    env,
    customHost: env === OTHER_OPTION_VALUE ? textOf(payload.host, "") : "",
    team: textOf(payload.team, base.team),
    testFile: textOf(payload.testFile, base.testFile),
    users: textOf(payload.users, base.users),
    duration: textOf(payload.runTime, base.duration),
    spawnRate: textOf(payload.spawnRate, base.spawnRate),
    location: textOf(payload.loadRegion, base.location),
    branch: textOf(payload.branch, base.branch),
    query: textOf(payload.query, ""),
    ...(known || env === OTHER_OPTION_VALUE ? {} : { env: base.env }),
  };
}
