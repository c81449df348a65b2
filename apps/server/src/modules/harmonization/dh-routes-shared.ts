import { DhEnvTypeSchema, DhPlatformSchema, ErrorBodySchema, type DhRow } from "@assay/core";
import { z } from "zod";
import type { Db } from "../../db/pool.js";
import { badRequest } from "../../errors.js";
import { latestRun, runKey } from "./harmonization.service.js";

/** What the /v1/dh route files share: the spec's `{ data }` answers and path parameters. */
export const tags = ["data harmonization"];
export const errors = { 400: ErrorBodySchema, 404: ErrorBodySchema };
export const data = <T extends z.ZodType>(schema: T) => z.object({ data: schema });
export const EnvParams = z.object({
  platform: DhPlatformSchema,
  env: z.string().min(1).max(100),
});
export const EnvWithTypeParams = EnvParams.extend({ envType: DhEnvTypeSchema });

export const nonGlobal = (platform: string) => {
  if (platform === "global") throw badRequest("Global data is read with queryGlobalData.");
  return platform as "legacy" | "nextGen" | "sfdc";
};

/** The rows of an environment's latest run, which the spec's read calls answer from. */
export async function latestRows(
  db: Db,
  platform: string,
  type: "sql" | "noSql",
  env: string,
): Promise<DhRow[]> {
  return (await latestRun(db, runKey({ platform: nonGlobal(platform), type, env, envType: "dev" })))
    .rows;
}
