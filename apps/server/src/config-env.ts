import { z } from "zod";

/**
 * The environment variables Assay reads, with the form each must have. config.ts parses them
 * once, together with assay.config.yaml; docs/configuration.md lists them all.
 */

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

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

/** Tokens and secrets travel to an issuer: https, or http to a provider on this very machine. */
function isHttpsOrLoopback(text: string): boolean {
  const url = new URL(text);
  return url.protocol === "https:" || ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
}

/** An origin such as https://assay.example.com: the issuer and redirect URIs are built on it. */
function isOrigin(text: string): boolean {
  try {
    const url = new URL(text);
    return (
      ["http:", "https:"].includes(url.protocol) &&
      !url.username &&
      !url.password &&
      url.pathname === "/" &&
      !url.search &&
      !url.hash &&
      !text.includes("?") &&
      !text.includes("#")
    );
  } catch {
    return false;
  }
}

/** ASSAY_SECRET_KEY as bytes: hex (64+ digits) or base64/base64url; undefined when neither. */
export function decodeSecretKey(text: string): Buffer | undefined {
  const trimmed = text.trim();
  let bytes: Buffer | undefined;
  if (/^(?:[0-9a-fA-F]{2}){32,}$/.test(trimmed)) bytes = Buffer.from(trimmed, "hex");
  else if (/^[A-Za-z0-9+/_-]+={0,2}$/.test(trimmed)) bytes = Buffer.from(trimmed, "base64");
  return bytes && bytes.length >= 32 ? bytes : undefined;
}

/** Settings whose values never appear in an error line: the error goes to the log. */
export const SECRET_SETTINGS = new Set([
  "ASSAY_SECRET_KEY",
  "ASSAY_BADGE_TOKEN",
  "ASSAY_ADMIN_PASSWORD",
  "ASSAY_INGEST_TOKEN",
  "OIDC_CLIENT_SECRET",
]);

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
  ASSAY_MAX_UPLOAD_FILES: z.coerce
    .number({ error: "expected a whole number of files from 1 to 1000000" })
    .int("expected a whole number of files from 1 to 1000000")
    .min(1, "expected a whole number of files from 1 to 1000000")
    .max(1_000_000, "expected a whole number of files from 1 to 1000000")
    .default(100_000),
  ASSAY_DEMO: z
    .enum(["0", "1"], { error: "expected 1 (load demo data into an empty store) or 0 (off)" })
    .default("1")
    .transform((v) => v === "1"),
  ASSAY_PUBLIC_URL: z
    .string()
    .refine(
      isOrigin,
      "expected the origin users open, such as https://assay.example.com (no path, query or credentials)",
    )
    .optional(),
  ASSAY_SECRET_KEY: z
    .string()
    .refine(
      (v) => decodeSecretKey(v) !== undefined,
      "expected 32 or more random bytes in base64 or hex, such as the output of `openssl rand -base64 32`",
    )
    .optional(),
  ASSAY_ADMIN_EMAIL: z.email("expected an email address such as admin@example.com").optional(),
  ASSAY_ADMIN_PASSWORD: z
    .string()
    .min(12, "expected a password of 12 to 128 characters")
    .max(128, "expected a password of 12 to 128 characters")
    .optional(),
  OIDC_ISSUER: z
    .string()
    .refine(isHttpUrl, "expected the issuer's URL, such as https://login.example.com/realms/qa")
    .optional(),
  OIDC_CLIENT_ID: z.string().min(1, "expected the client id registered at the issuer").optional(),
  OIDC_CLIENT_SECRET: z
    .string()
    .min(1, "expected the client secret registered at the issuer")
    .optional(),
  OIDC_SCOPES: z
    .string()
    .refine(
      (v) =>
        /^[\x21\x23-\x5b\x5d-\x7e]+( [\x21\x23-\x5b\x5d-\x7e]+)*$/.test(v) &&
        v.split(" ").includes("openid"),
      "expected space-separated scopes including openid, such as openid email profile",
    )
    .default("openid email phone profile offline_access"),
  OIDC_AUDIENCE: z
    .string()
    .min(1, "expected the audience (aud) of the issuer's access tokens for Assay")
    .optional(),
  ASSAY_READ_ACCESS: z
    .enum(["public", "signed-in"], {
      error: "expected public (signed-out visitors read results) or signed-in",
    })
    .default("public"),
  ASSAY_TRIAGE_SIMILARITY: z.coerce
    .number({ error: "expected a number from 0.1 to 1" })
    .min(0.1, "expected a number from 0.1 to 1")
    .max(1, "expected a number from 0.1 to 1")
    .default(0.6),
  ASSAY_SCHEDULE_CATCH_UP_MINUTES: z.coerce
    .number({ error: "expected a whole number of minutes from 0 to 10080" })
    .int("expected a whole number of minutes from 0 to 10080")
    .min(0, "expected a whole number of minutes from 0 to 10080")
    .max(10080, "expected a whole number of minutes from 0 to 10080")
    .default(60),
  ASSAY_SCHEDULE_MIN_GAP_MINUTES: z.coerce
    .number({ error: "expected a whole number of minutes from 1 to 1440" })
    .int("expected a whole number of minutes from 1 to 1440")
    .min(1, "expected a whole number of minutes from 1 to 1440")
    .max(1440, "expected a whole number of minutes from 1 to 1440")
    .default(15),
  ASSAY_SERVER_LEASE_SECONDS: z.coerce
    .number({ error: "expected a whole number of seconds from 3 to 600" })
    .int("expected a whole number of seconds from 3 to 600")
    .min(3, "expected a whole number of seconds from 3 to 600")
    .max(600, "expected a whole number of seconds from 3 to 600")
    .default(30),
  ASSAY_SERVER_HEARTBEAT_SECONDS: z.coerce
    .number({ error: "expected a whole number of seconds from 1 to 200" })
    .int("expected a whole number of seconds from 1 to 200")
    .min(1, "expected a whole number of seconds from 1 to 200")
    .max(200, "expected a whole number of seconds from 1 to 200")
    .default(5),
  ASSAY_BADGE_TOKEN: z
    .string()
    .min(16, "a badge token must be at least 16 characters (e.g. `openssl rand -hex 16`)")
    .optional(),
  ASSAY_WEBHOOK_ALLOW_PRIVATE: z
    .enum(["true", "false"], { error: "expected true or false" })
    .default("false")
    .transform((v) => v === "true"),
  ASSAY_SESSION_IDLE_MINUTES: z.coerce
    .number({ error: "expected a whole number of minutes from 5 to 10080" })
    .int("expected a whole number of minutes from 5 to 10080")
    .min(5, "expected a whole number of minutes from 5 to 10080")
    .max(10080, "expected a whole number of minutes from 5 to 10080")
    .default(480),
  ASSAY_SESSION_MAX_HOURS: z.coerce
    .number({ error: "expected a whole number of hours from 1 to 8760" })
    .int("expected a whole number of hours from 1 to 8760")
    .min(1, "expected a whole number of hours from 1 to 8760")
    .max(8760, "expected a whole number of hours from 1 to 8760")
    .default(168),
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

export const BUCKET_REQUIRED =
  "ASSAY_S3_BUCKET: required when ASSAY_OBJECT_STORE is s3; expected a bucket name such as assay-objects";

/** A value as quoted in an error line, with a URL's user:password@ masked: it goes to the log. */
export function shown(value: string | undefined): string {
  return JSON.stringify(value?.replace(/\/\/[^/@\s]*@/, "//***@"));
}

/**
 * Settings that only make sense together. Checked on the raw environment, so that they are
 * listed along with every other bad setting rather than after it is fixed.
 */
export function crossFieldProblems(env: NodeJS.ProcessEnv): string[] {
  const problems: string[] = [];
  if (env.ASSAY_OBJECT_STORE === "s3" && env.ASSAY_S3_BUCKET === undefined) {
    problems.push(BUCKET_REQUIRED);
  }
  if (env.OIDC_ISSUER !== undefined) {
    if (isHttpUrl(env.OIDC_ISSUER) && !isHttpsOrLoopback(env.OIDC_ISSUER)) {
      problems.push(
        `OIDC_ISSUER: expected an https URL (plain http only on this machine), got ${shown(env.OIDC_ISSUER)}`,
      );
    }
    for (const key of ["OIDC_CLIENT_ID", "OIDC_CLIENT_SECRET"]) {
      if (env[key] === undefined) {
        problems.push(`${key}: required when OIDC_ISSUER is set; register Assay as a client there`);
      }
    }
  }
  return problems;
}
