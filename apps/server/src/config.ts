import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import {
  CatalogSchema,
  DataHarmonizationConfigSchema,
  type Catalog,
  type DataHarmonizationConfig,
} from "@assay/core";
import { parseDocument } from "yaml";
import { BuildsConfigSchema, type BuildsConfig } from "./modules/builds/builds.config.js";
import {
  INTEGRATION_SECRETS,
  readIntegrationsConfig,
  type IntegrationsConfig,
} from "./modules/integrations/integrations.config.js";
import {
  IntegrationsFileSchema,
  mergeFileIntoEnv,
} from "./modules/integrations/integrations-file.js";
import { readReleasesConfig, type ReleasesConfig } from "./modules/releases/releases.config.js";
import {
  NotifyFileSchema,
  readNotifyConfig,
  type NotifyConfig,
} from "./modules/notify/notify.config.js";
import { z } from "zod";
import {
  BUCKET_REQUIRED,
  crossFieldProblems,
  decodeSecretKey,
  EnvSchema,
  LOG_LEVELS,
  SECRET_SETTINGS,
  shown,
} from "./config-env.js";
import {
  readRetentionPolicy,
  RetentionFileSchema,
  type RetentionPolicy,
} from "./config-retention.js";

/**
 * The only reader of process.env and assay.config.yaml. Everything is parsed once, here; a bad
 * value stops the start with one line per bad setting (docs/configuration.md lists them all).
 */

/** The example shipped with Assay: the catalogue used until an install writes its own file. */
export const EXAMPLE_CONFIG_PATH = fileURLToPath(
  new URL("../../../assay.config.example.yaml", import.meta.url),
);

export { decodeSecretKey, EnvSchema };

/** assay.config.yaml: unknown top-level keys are errors, so a typo never goes unnoticed. */
export const FileConfigSchema = z.strictObject({
  catalog: CatalogSchema,
  builds: BuildsConfigSchema,
  /** Data harmonization's sources, environments and global schemas; absent: none configured. */
  dataHarmonization: DataHarmonizationConfigSchema.optional(),
  /** Jira and Spira (no secrets: those come from the environment); the environment wins. */
  integrations: IntegrationsFileSchema.optional(),
  /** Notification rules kept in the file (read-only on the Setting screen). */
  notifications: NotifyFileSchema,
  /** How long results and runs are kept (config-retention.ts); absent: kept forever. */
  retention: RetentionFileSchema.optional(),
});

/**
 * The values of the environment variables data harmonization's sources name (DSNs, keys). Kept
 * out of every serialization, so logging a Config or a source never prints one.
 */
export class DhSecrets {
  readonly #values: ReadonlyMap<string, string>;
  constructor(values: ReadonlyMap<string, string>) {
    this.#values = values;
  }
  get(name: string): string | undefined {
    return this.#values.get(name);
  }
  toJSON(): string {
    return "[redacted]";
  }
}

export interface DataHarmonizationSettings {
  config: DataHarmonizationConfig;
  secrets: DhSecrets;
}

/** Where objects (screenshots, attachments) are kept: a local folder or an S3 bucket. */
export type ObjectStoreConfig =
  | { kind: "local"; dir: string }
  | {
      kind: "s3";
      bucket: string;
      region: string;
      endpoint: string | undefined;
      forcePathStyle: boolean;
      prefix: string | undefined;
    };

export interface Config {
  port: number;
  host: string;
  /** External PostgreSQL; absent means the embedded one under dataDir. */
  databaseUrl: string | undefined;
  dataDir: string;
  /** Where the catalogue was read from, for the start-up log. */
  configPath: string;
  dataHarmonizationHosts: RegExp | undefined;
  dbPoolSize: number;
  logLevel: (typeof LOG_LEVELS)[number];
  objectStore: ObjectStoreConfig;
  /** A service token accepted for ingestion besides stored ones (CI, tests). */
  ingestToken: string | undefined;
  maxUploadBytes: number;
  /**
   * Files in one upload (ASSAY_MAX_UPLOAD_FILES): a 10k-test allure-results folder has ~15,000
   * (a result and often a container per test), and each file costs memory and work of its own.
   */
  maxUploadFiles: number;
  /** Load demo data at start when the embedded database has no runs yet (ASSAY_DEMO). */
  demo: boolean;
  /**
   * The origin users open (ASSAY_PUBLIC_URL), without a trailing slash. The issuer and the
   * redirect URIs are built on it, never on a request's Host header.
   */
  publicUrl: string;
  /** ASSAY_SECRET_KEY decoded; undefined means secret-key.ts keeps one in the data folder. */
  secretKey: Buffer | undefined;
  /** The first admin of the embedded identity provider, made when it has no users. */
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  /** An external OpenID issuer; undefined means the embedded provider at /oidc. */
  oidcIssuer: string | undefined;
  /** The client registered at OIDC_ISSUER; both set whenever oidcIssuer is. */
  oidcClientId: string | undefined;
  oidcClientSecret: string | undefined;
  /** Scopes asked of OIDC_ISSUER (the embedded provider's are fixed). */
  oidcScopes: string;
  /** The aud of OIDC_ISSUER's access tokens for Assay; undefined means the client id. */
  oidcAudience: string | undefined;
  /** public: signed-out visitors read lists and results; signed-in: everything needs sign-in. */
  readAccess: "public" | "signed-in";
  /** A session ends after this long without a request (ASSAY_SESSION_IDLE_MINUTES). */
  sessionIdleMs: number;
  /** A session ends this long after sign-in, however active (ASSAY_SESSION_MAX_HOURS). */
  sessionMaxMs: number;
  /**
   * A schedule's slot missed while every server was down still runs at start when it is at most
   * this old (ASSAY_SCHEDULE_CATCH_UP_MINUTES); older ones are recorded as missed.
   */
  scheduleCatchUpMs: number;
  /**
   * A schedule may not launch builds closer together than this (ASSAY_SCHEDULE_MIN_GAP_MINUTES):
   * every launch holds a runner and writes a run.
   */
  scheduleMinIntervalMs: number;
  /**
   * Server leases (issue 31): each server renews its lease every heartbeatMs; a server whose
   * lease (leaseMs, ASSAY_SERVER_LEASE_SECONDS) ran out is dead to the others, which take over
   * its builds, data-harmonization runs and schedule slots.
   */
  servers: { leaseMs: number; heartbeatMs: number };
  /**
   * The analysis from past decisions takes a person's decision on a failure whose normalised
   * message is at least this similar (pg_trgm similarity, ASSAY_TRIAGE_SIMILARITY).
   */
  triageSimilarity: number;
  /**
   * Schedules' webhooks may reach loopback and private addresses, over http too
   * (ASSAY_WEBHOOK_ALLOW_PRIVATE=true: a chat bridge on the LAN); by default https to public ones.
   */
  webhookAllowPrivate: boolean;
  /** The Nora Releases report: incident JQL, release notes URL (ASSAY_JIRA_INCIDENT_JQL ...). */
  releases: ReleasesConfig;
  catalog: Catalog;
  /** Executors, time limit and rate limit of builds (the file's `builds:` key). */
  builds: BuildsConfig;
  /** Assay's install folder: local build commands run from it (examples/ is there). */
  installDir: string;
  dataHarmonization: DataHarmonizationSettings | undefined;
  /** Jira and Spira (ASSAY_JIRA_*, ASSAY_SPIRA_*); each undefined when not configured. */
  integrations: IntegrationsConfig;
  /** The file's `notifications:` rules, their secrets read from the variables they name. */
  notifications: NotifyConfig;
  /** ASSAY_BADGE_TOKEN: lets badges be read without signing in when reading needs sign-in. */
  badgeToken: string | undefined;
  /** The file's `retention:` policy; undefined: nothing is removed. */
  retention: RetentionPolicy | undefined;
}

/** Thrown when the configuration is unusable; `problems` has one line per bad setting. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(
      `Assay cannot start: the configuration is invalid.\n${problems.map((p) => `  - ${p}`).join("\n")}`,
    );
    this.name = "ConfigError";
  }
}

/**
 * Thrown when the server cannot start with what it was given (a secret key that does not open
 * the database's sealed keys, an unreadable key file): the message is one line saying what to
 * do, and the CLI prints it without a stack trace.
 */
export class StartRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = "StartRefused";
  }
}

function issuePath(segments: readonly PropertyKey[]): string {
  return segments
    .map((s, i) => (typeof s === "number" ? `[${s}]` : `${i === 0 ? "" : "."}${String(s)}`))
    .join("");
}

function readFileConfig(file: string): z.infer<typeof FileConfigSchema> {
  const name = path.basename(file);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new ConfigError([`ASSAY_CONFIG: cannot read ${file} (${(error as Error).message})`]);
  }
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length > 0) {
    throw new ConfigError(
      doc.errors.map((e) => {
        const at = e.linePos?.[0];
        const where = at ? `line ${at.line}, column ${at.col}` : "";
        return `${name}${where ? ` ${where}` : ""}: ${e.message.split("\n")[0]?.replace(/ at line \d+, column \d+:?$/, "")}`;
      }),
    );
  }
  const parsed = FileConfigSchema.safeParse(doc.toJS({ maxAliasCount: 100 }) ?? {});
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map(
        (i) => `${name}: ${issuePath(i.path) || "(top level)"}: ${i.message}`,
      ),
    );
  }
  return parsed.data;
}

/**
 * A secret by its variable's name: the variable itself, or NAME_FILE naming a file that holds it
 * (Docker and Kubernetes secrets, or a secret store's agent writing files such as Vault Agent
 * or the AWS Secrets Manager CSI driver). Problems name the variable or file, never a value.
 */
function secretValue(
  env: NodeJS.ProcessEnv,
  variable: string,
): { ok: true; value: string } | { ok: false; problem: string } {
  const direct = env[variable];
  if (direct) return { ok: true, value: direct };
  const file = env[`${variable}_FILE`];
  if (!file)
    return {
      ok: false,
      problem: `the environment variable ${variable} is not set (it holds the connection secret, which never goes in the file; or set ${variable}_FILE to a file holding it)`,
    };
  try {
    // One trailing newline is what editors and `echo` add: not part of the secret.
    const value = readFileSync(file, "utf8").replace(/\r?\n$/, "");
    if (value) return { ok: true, value };
    return { ok: false, problem: `${variable}_FILE names an empty file (${file})` };
  } catch (error) {
    const code = (error as { code?: string }).code ?? "unreadable";
    return {
      ok: false,
      problem: `${variable}_FILE names a file Assay cannot read (${file}: ${code})`,
    };
  }
}

/**
 * The environment with the trackers' secrets given as NAME_FILE read into NAME (the variable
 * itself wins when both are set).
 */
function withIntegrationSecrets(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const resolved: NodeJS.ProcessEnv = { ...env };
  const problems: string[] = [];
  for (const variable of INTEGRATION_SECRETS) {
    if (env[variable] || !env[`${variable}_FILE`]) continue;
    const value = secretValue(env, variable);
    if (value.ok) resolved[variable] = value.value;
    else problems.push(value.problem);
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return resolved;
}

/** The secrets data harmonization's sources name, read here; a missing one stops the start. */
function dhSettings(
  config: DataHarmonizationConfig | undefined,
  env: NodeJS.ProcessEnv,
): DataHarmonizationSettings | undefined {
  if (!config) return undefined;
  const values = new Map<string, string>();
  const problems: string[] = [];
  for (const [name, source] of Object.entries(config.sources)) {
    const wanted: string[] = [];
    if ("urlEnv" in source && source.urlEnv) wanted.push(source.urlEnv);
    if (source.kind === "s3") {
      if ((source.accessKeyIdEnv === undefined) !== (source.secretAccessKeyEnv === undefined))
        problems.push(
          `dataHarmonization.sources.${name}: set both accessKeyIdEnv and secretAccessKeyEnv, or neither`,
        );
      for (const v of [source.accessKeyIdEnv, source.secretAccessKeyEnv]) if (v) wanted.push(v);
    }
    for (const variable of wanted) {
      const value = secretValue(env, variable);
      if (value.ok) values.set(variable, value.value);
      else problems.push(`dataHarmonization.sources.${name}: ${value.problem}`);
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return { config, secrets: new DhSecrets(values) };
}

function objectStoreConfig(e: z.infer<typeof EnvSchema>, dataDir: string): ObjectStoreConfig {
  if (e.ASSAY_OBJECT_STORE === "local")
    return { kind: "local", dir: path.join(dataDir, "objects") };
  if (e.ASSAY_S3_BUCKET === undefined) throw new ConfigError([BUCKET_REQUIRED]);
  return {
    kind: "s3",
    bucket: e.ASSAY_S3_BUCKET,
    region: e.ASSAY_S3_REGION,
    endpoint: e.ASSAY_S3_ENDPOINT,
    forcePathStyle: e.ASSAY_S3_FORCE_PATH_STYLE,
    prefix: e.ASSAY_S3_PREFIX,
  };
}

/**
 * Reads the environment and the configuration file. `cwd` anchors relative paths, so
 * `npm start` from the repository root keeps data in ./data.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Config {
  const parsedEnv = EnvSchema.safeParse(env);
  const crossField = crossFieldProblems(env);
  if (!parsedEnv.success || crossField.length > 0) {
    const issues = parsedEnv.success ? [] : parsedEnv.error.issues;
    throw new ConfigError([
      ...issues.map((i) => {
        const key = String(i.path[0]);
        const got = SECRET_SETTINGS.has(key) ? "a value that is not shown" : shown(env[key]);
        return `${key}: ${i.message}, got ${got}`;
      }),
      ...crossField,
    ]);
  }
  const e = parsedEnv.data;
  const dataDir = path.resolve(cwd, e.ASSAY_DATA_DIR);
  const defaultFile = path.resolve(cwd, "assay.config.yaml");
  const configPath = e.ASSAY_CONFIG
    ? path.resolve(cwd, e.ASSAY_CONFIG)
    : existsSync(defaultFile)
      ? defaultFile
      : EXAMPLE_CONFIG_PATH;
  const file = readFileConfig(configPath);
  const integrations = readIntegrationsConfig(withIntegrationSecrets(env), file.integrations);
  if ("problems" in integrations) throw new ConfigError(integrations.problems);
  // The report's incident JQL may be set in the file's integrations.jira.incidentJql too.
  const releases = readReleasesConfig(mergeFileIntoEnv(env, file.integrations).merged);
  if ("problems" in releases) throw new ConfigError(releases.problems);
  const notifications = readNotifyConfig(file.notifications, env);
  if ("problems" in notifications) throw new ConfigError(notifications.problems);
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir,
    configPath,
    dataHarmonizationHosts: e.ASSAY_DATA_HARMONIZATION_HOSTS
      ? new RegExp(e.ASSAY_DATA_HARMONIZATION_HOSTS)
      : undefined,
    dbPoolSize: e.ASSAY_DB_POOL_SIZE,
    logLevel: e.LOG_LEVEL,
    objectStore: objectStoreConfig(e, dataDir),
    ingestToken: e.ASSAY_INGEST_TOKEN,
    maxUploadBytes: e.ASSAY_MAX_UPLOAD_MB * 1024 * 1024,
    maxUploadFiles: e.ASSAY_MAX_UPLOAD_FILES,
    demo: e.ASSAY_DEMO,
    publicUrl: e.ASSAY_PUBLIC_URL
      ? new URL(e.ASSAY_PUBLIC_URL).origin
      : `http://localhost:${e.PORT}`,
    secretKey: e.ASSAY_SECRET_KEY ? decodeSecretKey(e.ASSAY_SECRET_KEY) : undefined,
    adminEmail: e.ASSAY_ADMIN_EMAIL?.toLowerCase(),
    adminPassword: e.ASSAY_ADMIN_PASSWORD,
    oidcIssuer: e.OIDC_ISSUER,
    oidcClientId: e.OIDC_CLIENT_ID,
    oidcClientSecret: e.OIDC_CLIENT_SECRET,
    oidcScopes: e.OIDC_SCOPES,
    oidcAudience: e.OIDC_AUDIENCE,
    readAccess: e.ASSAY_READ_ACCESS,
    sessionIdleMs: e.ASSAY_SESSION_IDLE_MINUTES * 60_000,
    sessionMaxMs: e.ASSAY_SESSION_MAX_HOURS * 3_600_000,
    scheduleCatchUpMs: e.ASSAY_SCHEDULE_CATCH_UP_MINUTES * 60_000,
    scheduleMinIntervalMs: e.ASSAY_SCHEDULE_MIN_GAP_MINUTES * 60_000,
    servers: {
      leaseMs: e.ASSAY_SERVER_LEASE_SECONDS * 1000,
      // A heartbeat at least three times per lease, so one slow renewal does not lose it.
      heartbeatMs:
        Math.min(e.ASSAY_SERVER_HEARTBEAT_SECONDS, e.ASSAY_SERVER_LEASE_SECONDS / 3) * 1000,
    },
    triageSimilarity: e.ASSAY_TRIAGE_SIMILARITY,
    webhookAllowPrivate: e.ASSAY_WEBHOOK_ALLOW_PRIVATE,
    releases: releases.config,
    catalog: file.catalog,
    builds: file.builds,
    installDir: path.dirname(EXAMPLE_CONFIG_PATH),
    dataHarmonization: dhSettings(file.dataHarmonization, env),
    integrations: integrations.config,
    notifications,
    badgeToken: e.ASSAY_BADGE_TOKEN,
    retention: readRetentionPolicy(file.retention),
  };
}
