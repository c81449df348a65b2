import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CatalogSchema, DataHarmonizationConfigSchema } from "@assay/core";
import { parseDocument } from "yaml";
import { z } from "zod";
import { BuildsConfigSchema } from "./modules/builds/builds.config.js";
import { IntegrationsFileSchema } from "./modules/integrations/integrations-file.js";
import { NotifyFileSchema } from "./modules/notify/notify.config.js";
import { ConfigError } from "./config-errors.js";
import { RetentionFileSchema } from "./config-retention.js";

/** assay.config.yaml (ASSAY_CONFIG): its schema and its reading, for loadConfig (config.ts). */

/** The example shipped with Assay: the catalogue used until an install writes its own file. */
export const EXAMPLE_CONFIG_PATH = fileURLToPath(
  new URL("../../../assay.config.example.yaml", import.meta.url),
);

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

function issuePath(segments: readonly PropertyKey[]): string {
  return segments
    .map((s, i) => (typeof s === "number" ? `[${s}]` : `${i === 0 ? "" : "."}${String(s)}`))
    .join("");
}

export function readFileConfig(file: string): z.infer<typeof FileConfigSchema> {
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
