import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CatalogSchema, type Catalog } from "@assay/core";
import { parseDocument } from "yaml";
import { z } from "zod";

/**
 * The only reader of process.env and assay.config.yaml. Everything is parsed once, here; a bad
 * value stops the start with one line per bad setting (docs/configuration.md lists them all).
 */

/** The example shipped with Assay: the catalogue used until an install writes its own file. */
export const EXAMPLE_CONFIG_PATH = fileURLToPath(
  new URL("../../../assay.config.example.yaml", import.meta.url),
);

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

function isRegex(source: string): boolean {
  try {
    new RegExp(source);
    return true;
  } catch {
    return false;
  }
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    // No user:password@: credentials come from the SDK's chain, and the endpoint is logged.
    return ["http:", "https:"].includes(url.protocol) && !url.username && !url.password;
  } catch {
    return false;
  }
}

const PortSchema = z.coerce
  .number({ error: "expected an integer from 1 to 65535" })
  .int("expected an integer from 1 to 65535")
  .min(1, "expected an integer from 1 to 65535")
  .max(65535, "expected an integer from 1 to 65535");

export const EnvSchema = z.object({
  PORT: PortSchema.default(8080),
  HOST: z.string().min(1, "expected a host name or IP address").default("127.0.0.1"),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\/\S+$/, "expected a URL such as postgres://user:pass@host:5432/db")
    .optional(),
  ASSAY_DATA_DIR: z.string().min(1, "expected a folder path").default("data"),
  ASSAY_CONFIG: z.string().min(1, "expected a path to a YAML file").optional(),
  ASSAY_DATA_HARMONIZATION_HOSTS: z
    .string()
    .refine(isRegex, "expected a regular expression such as ^data\\.example\\.com$")
    .optional(),
  ASSAY_DB_POOL_SIZE: z.coerce
    .number({ error: "expected an integer from 1 to 100" })
    .int("expected an integer from 1 to 100")
    .min(1, "expected an integer from 1 to 100")
    .max(100, "expected an integer from 1 to 100")
    .default(10),
  ASSAY_INGEST_TOKEN: z
    .string()
    .min(24, "expected a random secret of at least 24 characters")
    .optional(),
  ASSAY_MAX_UPLOAD_MB: z.coerce
    .number({ error: "expected a whole number of MiB from 1 to 102400" })
    .int("expected a whole number of MiB from 1 to 102400")
    .min(1, "expected a whole number of MiB from 1 to 102400")
    .max(102400, "expected a whole number of MiB from 1 to 102400")
    .default(1024),
  LOG_LEVEL: z
    .enum(LOG_LEVELS, { error: `expected one of ${LOG_LEVELS.join(", ")}` })
    .default("info"),
  ASSAY_OBJECT_STORE: z.enum(["local", "s3"], { error: "expected local or s3" }).default("local"),
  ASSAY_S3_BUCKET: z
    .string()
    .regex(
      /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
      "expected a bucket name such as assay-objects (3-63 lower-case letters, digits, . and -)",
    )
    .optional(),
  ASSAY_S3_REGION: z
    .string()
    .regex(/^[a-z0-9-]+$/, "expected a region such as us-east-1")
    .default("us-east-1"),
  ASSAY_S3_ENDPOINT: z
    .string()
    .refine(isHttpUrl, "expected an http(s) URL without credentials, such as http://minio:9000")
    .optional(),
  ASSAY_S3_FORCE_PATH_STYLE: z
    .enum(["true", "false"], { error: "expected true or false" })
    .default("false")
    .transform((v) => v === "true"),
  ASSAY_S3_PREFIX: z
    .string()
    .regex(
      /^[A-Za-z0-9_-][A-Za-z0-9_.-]*(\/[A-Za-z0-9_-][A-Za-z0-9_.-]*)*\/?$/,
      "expected a key prefix such as assay/ (letters, digits, _ . - separated by /)",
    )
    .optional(),
});

const BUCKET_REQUIRED =
  "ASSAY_S3_BUCKET: required when ASSAY_OBJECT_STORE is s3; expected a bucket name such as assay-objects";

/** A value as quoted in an error line, with a URL's user:password@ masked: it goes to the log. */
function shown(value: string | undefined): string {
  return JSON.stringify(value?.replace(/\/\/[^/@\s]*@/, "//***@"));
}

/**
 * Settings that only make sense together. Checked on the raw environment, so that they are
 * listed along with every other bad setting rather than after it is fixed.
 */
function crossFieldProblems(env: NodeJS.ProcessEnv): string[] {
  const problems: string[] = [];
  if (env.ASSAY_OBJECT_STORE === "s3" && env.ASSAY_S3_BUCKET === undefined) {
    problems.push(BUCKET_REQUIRED);
  }
  return problems;
}

/** assay.config.yaml: unknown top-level keys are errors, so a typo never goes unnoticed. */
export const FileConfigSchema = z.strictObject({
  catalog: CatalogSchema,
});

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
  catalog: Catalog;
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

function issuePath(segments: readonly PropertyKey[]): string {
  return segments
    .map((s, i) => (typeof s === "number" ? `[${s}]` : `${i === 0 ? "" : "."}${String(s)}`))
    .join("");
}

function readFileConfig(file: string): { catalog: Catalog } {
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
        return `${name}${where ? ` ${where}` : ""}: ${e.message.split("\n")[0]}`;
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
        return `${key}: ${i.message}, got ${shown(env[key])}`;
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
    catalog: file.catalog,
  };
}
