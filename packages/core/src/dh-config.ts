import { z } from "zod";

/**
 * Data harmonization's configuration (the `dataHarmonization:` key of assay.config.yaml): the
 * data sources, the environments of each platform with their entity mappings, and the global
 * schemas with their tables. Connection secrets are never in the file: a source names the
 * environment variable that holds them (`urlEnv`, `accessKeyIdEnv`...).
 */

export const DH_PLATFORMS = ["legacy", "nextGen", "sfdc", "global"] as const;
export type DhPlatform = (typeof DH_PLATFORMS)[number];
export const DH_TYPES = ["sql", "noSql"] as const;
export type DhType = (typeof DH_TYPES)[number];
export const DH_ENV_TYPES = ["dev", "stage"] as const;
export type DhEnvType = (typeof DH_ENV_TYPES)[number];
export const DH_GLOBAL_SCHEMAS = [
  "trial",
  "admin",
  "notifications",
  "scheduler",
  "tenant",
  "reference",
] as const;
export type DhGlobalSchema = (typeof DH_GLOBAL_SCHEMAS)[number];

/** Which types each platform offers (spec section 2); NextGen's sql is shown but disabled. */
export const DH_PLATFORM_TYPES: Record<DhPlatform, { type: DhType; disabled: boolean }[]> = {
  legacy: [
    { type: "sql", disabled: false },
    { type: "noSql", disabled: false },
  ],
  nextGen: [
    { type: "sql", disabled: true },
    { type: "noSql", disabled: false },
  ],
  sfdc: [{ type: "noSql", disabled: false }],
  global: [{ type: "sql", disabled: false }],
};

// Table, column and collection names go into statements (quoted): only plain identifiers, with
// an optional schema part, so nothing a file could hold becomes SQL.
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_$]{0,62}(\.[A-Za-z_][A-Za-z0-9_$]{0,62})?$/;
export const DhIdentifierSchema = z
  .string()
  .regex(IDENTIFIER, "expected a table or collection name such as subjects or dh.subjects");
const PrefixSchema = z
  .string()
  .regex(/^[A-Za-z0-9_.\-/]*$/, "an object prefix uses only letters, digits and / _ . -")
  .refine((p) => !p.split("/").includes(".."), "an object prefix cannot contain '..'");
const EnvNameSchema = z
  .string()
  .regex(/^[A-Z][A-Z0-9_]*$/, "expected the NAME of an environment variable, e.g. DH_LEGACY_DSN");
const SourceNameSchema = z.string().regex(/^[a-z0-9][a-z0-9-]*$/, "expected a-z, 0-9 and -");

const limits = {
  /** A statement or request slower than this fails its entity (ms). */
  timeoutMs: z.number().int().min(100).max(600_000).default(30_000),
  /** Connections opened to this source at most, across a run's entities. */
  maxConnections: z.number().int().min(1).max(32).default(4),
};

export const DhSourceSchema = z.discriminatedUnion("kind", [
  z.strictObject({ kind: z.literal("mysql"), urlEnv: EnvNameSchema, ...limits }),
  z
    .strictObject({
      kind: z.literal("postgres"),
      /** The variable holding postgres://user:password@host:port/db (Redshift: port 5439). */
      urlEnv: EnvNameSchema.optional(),
      /** Assay's own PostgreSQL: what the demo environments use. */
      assayDatabase: z.literal(true).optional(),
      ...limits,
    })
    .refine((s) => (s.urlEnv === undefined) !== (s.assayDatabase === undefined), {
      message: "a postgres source has either urlEnv or assayDatabase: true",
    }),
  z.strictObject({
    kind: z.literal("s3"),
    bucket: z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, "expected an S3 bucket name"),
    region: z.string().min(1).default("us-east-1"),
    endpoint: z.url().optional(),
    forcePathStyle: z.boolean().default(false),
    /** Without them the SDK's own chain (instance role, AWS_PROFILE...) is used. */
    accessKeyIdEnv: EnvNameSchema.optional(),
    secretAccessKeyEnv: EnvNameSchema.optional(),
    ...limits,
  }),
  z.strictObject({
    kind: z.literal("folder"),
    /** NDJSON files in a folder under Assay's data folder (the demo's local object store). */
    dir: PrefixSchema.min(1),
    ...limits,
  }),
  z.strictObject({
    kind: z.literal("documentdb"),
    urlEnv: EnvNameSchema,
    database: DhIdentifierSchema,
    ...limits,
  }),
]);
export type DhSource = z.infer<typeof DhSourceSchema>;

const envBase = {
  value: z.string().regex(/^[a-z0-9][a-z0-9_-]*$/, "expected a-z, 0-9, - and _"),
  alias: z.string().trim().min(1),
  active: z.boolean().default(true),
  envType: z.enum(DH_ENV_TYPES),
};

const CountEntitySchema = z.strictObject({
  entity: z.string().trim().min(1),
  /** A table of the source (sql) . */
  source: DhIdentifierSchema,
  /** A table (sql) or an object prefix holding NDJSON files (noSql). */
  destination: z.string().min(1),
  /** sql: the integer key column both tables share; Find missing rows bisects its ranges. */
  key: DhIdentifierSchema.optional(),
});

const FhirEntitySchema = z.strictObject({
  entity: z.string().trim().min(1),
  fhirPrefix: PrefixSchema,
  fhirLitePrefix: PrefixSchema,
  docdbCollections: z.array(DhIdentifierSchema).min(1),
  redshiftTable: DhIdentifierSchema,
});

export const DhEnvironmentSchema = z.strictObject({
  ...envBase,
  type: z.enum(DH_TYPES),
  /** sql / noSql comparisons: source tables against destination tables or object prefixes. */
  source: SourceNameSchema.optional(),
  destination: SourceNameSchema.optional(),
  entities: z.array(CountEntitySchema).default([]),
  /** Environments whose value contains "fhir": FHIR and FHIR-lite files, DocumentDB, Redshift. */
  fhir: z
    .strictObject({
      files: SourceNameSchema,
      docdb: SourceNameSchema,
      redshift: SourceNameSchema,
      entities: z.array(FhirEntitySchema).min(1),
    })
    .optional(),
  /** Environments whose value contains "sfdc": exported lead documents against MySQL. */
  sfdc: z
    .strictObject({
      files: SourceNameSchema,
      mysql: SourceNameSchema,
      prefix: PrefixSchema,
      table: DhIdentifierSchema,
      key: DhIdentifierSchema.default("lead_id"),
    })
    .optional(),
});
export type DhEnvironment = z.infer<typeof DhEnvironmentSchema>;

const SchemaTemplateSchema = z
  .string()
  .regex(
    /^[A-Za-z_{}][A-Za-z0-9_${}]*$/,
    "expected a schema name, {schema} standing for the schema",
  )
  .default("{schema}");

export const DhGlobalEnvironmentSchema = z.strictObject({
  ...envBase,
  mysql: SourceNameSchema,
  redshift: SourceNameSchema,
  /** The database (MySQL) and schema (Redshift) holding a global schema's tables. */
  mysqlSchema: SchemaTemplateSchema,
  redshiftSchema: SchemaTemplateSchema,
});
export type DhGlobalEnvironment = z.infer<typeof DhGlobalEnvironmentSchema>;

/** What Run Report asks for (spec section 5 routing), decided by platform, type and env name. */
export type DhReportKind = "global" | "fhir" | "sfdc" | "nosql" | "sql";

export function dhReportKind(platform: DhPlatform, type: DhType, env: string): DhReportKind {
  if (platform === "global") return "global";
  if (env.includes("fhir")) return "fhir";
  if (env.includes("sfdc")) return "sfdc";
  return type === "noSql" ? "nosql" : "sql";
}

export const DataHarmonizationConfigSchema = z
  .strictObject({
    sources: z.record(SourceNameSchema, DhSourceSchema),
    environments: z.strictObject({
      legacy: z.array(DhEnvironmentSchema).default([]),
      nextGen: z.array(DhEnvironmentSchema).default([]),
      sfdc: z.array(DhEnvironmentSchema).default([]),
    }),
    global: z.strictObject({
      environments: z.array(DhGlobalEnvironmentSchema).default([]),
      schemas: z.strictObject(
        Object.fromEntries(
          DH_GLOBAL_SCHEMAS.map((s) => [s, z.array(DhIdentifierSchema).min(1)]),
        ) as Record<DhGlobalSchema, z.ZodArray<typeof DhIdentifierSchema>>,
      ),
    }),
  })
  .superRefine((config, ctx) => {
    const known = (name: string | undefined, path: (string | number)[]) => {
      if (name !== undefined && !(name in config.sources))
        ctx.addIssue({ code: "custom", path, message: `no source named "${name}" in sources` });
    };
    for (const platform of ["legacy", "nextGen", "sfdc"] as const) {
      const seen = new Set<string>();
      config.environments[platform].forEach((env, i) => {
        const at = ["environments", platform, i];
        if (seen.has(env.value))
          ctx.addIssue({ code: "custom", path: [...at, "value"], message: "duplicate value" });
        seen.add(env.value);
        const kind = dhReportKind(platform, env.type, env.value);
        if (kind === "fhir" && !env.fhir)
          ctx.addIssue({ code: "custom", path: at, message: "a fhir environment needs fhir:" });
        if (kind === "sfdc" && !env.sfdc)
          ctx.addIssue({ code: "custom", path: at, message: "an sfdc environment needs sfdc:" });
        if ((kind === "sql" || kind === "nosql") && (!env.source || !env.destination))
          ctx.addIssue({ code: "custom", path: at, message: "needs source: and destination:" });
        known(env.source, [...at, "source"]);
        known(env.destination, [...at, "destination"]);
        if (env.fhir)
          for (const k of ["files", "docdb", "redshift"] as const)
            known(env.fhir[k], [...at, "fhir", k]);
        if (env.sfdc)
          for (const k of ["files", "mysql"] as const) known(env.sfdc[k], [...at, "sfdc", k]);
      });
    }
    config.global.environments.forEach((env, i) => {
      known(env.mysql, ["global", "environments", i, "mysql"]);
      known(env.redshift, ["global", "environments", i, "redshift"]);
    });
  });
export type DataHarmonizationConfig = z.infer<typeof DataHarmonizationConfigSchema>;
