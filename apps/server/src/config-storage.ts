import path from "node:path";
import type { z } from "zod";
import { BUCKET_REQUIRED, type EnvSchema } from "./config-env.js";
import { ConfigError } from "./config-errors.js";

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

export function objectStoreConfig(
  e: z.infer<typeof EnvSchema>,
  dataDir: string,
): ObjectStoreConfig {
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
