import { existsSync } from "node:fs";
import path from "node:path";
import type { Catalog } from "@assay/core";
import type { BuildsConfig } from "./modules/builds/builds.config.js";
import {
  readIntegrationsConfig,
  type IntegrationsConfig,
} from "./modules/integrations/integrations.config.js";
import { mergeFileIntoEnv } from "./modules/integrations/integrations-file.js";
import { readReleasesConfig, type ReleasesConfig } from "./modules/releases/releases.config.js";
import { readNotifyConfig, type NotifyConfig } from "./modules/notify/notify.config.js";
import { readFlakyConfig, type FlakySettings } from "./config-flaky.js";
import {
  crossFieldProblems,
  decodeSecretKey,
  EnvSchema,
  LOG_LEVELS,
  SECRET_SETTINGS,
  shown,
} from "./config-env.js";
import { ConfigError } from "./config-errors.js";
import { EXAMPLE_CONFIG_PATH, readFileConfig } from "./config-file.js";
import {
  dhSettings,
  withIntegrationSecrets,
  type DataHarmonizationSettings,
} from "./config-secrets.js";
import { objectStoreConfig, type ObjectStoreConfig } from "./config-storage.js";
import { readDiffSettings, type DiffSettings } from "./config-diff.js";
import { readTrendSettings, type TrendSettings } from "./config-trends.js";
import { readRetentionPolicy, type RetentionPolicy } from "./config-retention.js";

/**
 * The only reader of process.env and assay.config.yaml, with its config-<group>.ts files (the
 * environment's schema, the file, secrets, storage). Everything is parsed once, at start; a bad
 * value stops the start with one line per bad setting (docs/configuration.md lists them all).
 */

export { decodeSecretKey, EnvSchema };
// Each group of settings is read in a file of its own (config-<group>.ts); callers import here.
export { ConfigError, StartRefused } from "./config-errors.js";
export { EXAMPLE_CONFIG_PATH, FileConfigSchema } from "./config-file.js";
export { DhSecrets, type DataHarmonizationSettings } from "./config-secrets.js";
export type { ObjectStoreConfig } from "./config-storage.js";

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
  /** Flaky tests: window, threshold, decay (config-flaky.ts). */
  flaky: FlakySettings;
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
  /** The run diff's "slower" thresholds (config-diff.ts). */
  diff: DiffSettings;
  /** The load trends' regression rule (config-trends.ts). */
  trends: TrendSettings;
  /** The file's `retention:` policy; undefined: nothing is removed. */
  retention: RetentionPolicy | undefined;
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
  const flaky = readFlakyConfig(env);
  if ("problems" in flaky) throw new ConfigError(flaky.problems);
  const notifications = readNotifyConfig(file.notifications, env);
  if ("problems" in notifications) throw new ConfigError(notifications.problems);
  const diff = readDiffSettings(env);
  if ("problems" in diff) throw new ConfigError(diff.problems);
  const trends = readTrendSettings(env);
  if ("problems" in trends) throw new ConfigError(trends.problems);
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
    flaky: flaky.config,
    catalog: file.catalog,
    builds: file.builds,
    installDir: path.dirname(EXAMPLE_CONFIG_PATH),
    dataHarmonization: dhSettings(file.dataHarmonization, env),
    integrations: integrations.config,
    notifications,
    badgeToken: e.ASSAY_BADGE_TOKEN,
    diff: diff.settings,
    trends: trends.settings,
    retention: readRetentionPolicy(file.retention),
  };
}
