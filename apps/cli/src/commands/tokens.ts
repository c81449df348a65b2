import { parseArgs } from "node:util";
import {
  AppError,
  createLogger,
  createToken,
  listTokens,
  loadConfig,
  revokeToken,
  TOKEN_SCOPES,
  withDatabase,
  type TokenScope,
} from "@assay/server";
import { KnownError } from "../errors.js";

export const tokensUsage = `Usage: assay tokens create --name NAME [--scope ingest|admin]...
       assay tokens list
       assay tokens revoke --name NAME

Service tokens let CI jobs and reporters send results (scope ingest, the default) or manage
Assay (scope admin). A new token is printed once: only its hash is stored.

Examples:
  npx assay tokens create --name nightly-ci
  npx assay tokens create --name ops --scope admin --scope ingest
  npx assay tokens revoke --name nightly-ci`;

const options = {
  name: { type: "string" },
  scope: { type: "string", multiple: true },
} as const;

function scopesOf(values: readonly string[] | undefined): TokenScope[] {
  const scopes = values?.length ? values : ["ingest"];
  for (const scope of scopes) {
    if (!(TOKEN_SCOPES as readonly string[]).includes(scope)) {
      throw new KnownError(`unknown scope "${scope}": use ${TOKEN_SCOPES.join(" or ")}.`);
    }
  }
  return [...new Set(scopes)] as TokenScope[];
}

export async function tokens(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    options,
    allowPositionals: true,
    strict: true,
  });
  const action = positionals[0];
  if (!action || !["create", "list", "revoke"].includes(action)) {
    throw new KnownError(`say what to do with tokens: create, list or revoke.\n\n${tokensUsage}`);
  }
  if (action !== "list" && !values.name)
    throw new KnownError(`tokens ${action} needs --name NAME.`);
  const config = loadConfig();
  // Logs would interleave with the token output; only problems are worth showing here.
  const log = createLogger("warn");
  await withDatabase(config, log, async (db) => {
    try {
      if (action === "create") {
        const created = await createToken(db.kysely, values.name!, scopesOf(values.scope));
        console.log(
          `Created token "${created.row.name}" (scopes: ${created.row.scopes.join(", ")}).`,
        );
        console.log("Copy it now; it cannot be shown again:");
        console.log(created.token);
      } else if (action === "revoke") {
        await revokeToken(db.kysely, values.name!);
        console.log(`Revoked token "${values.name}".`);
      } else {
        const rows = await listTokens(db.kysely);
        if (rows.length === 0)
          console.log("No service tokens yet: create one with `assay tokens create --name NAME`.");
        for (const row of rows) {
          const state = row.revoked_at ? `revoked ${row.revoked_at.toISOString()}` : "active";
          const used = row.last_used_at
            ? `last used ${row.last_used_at.toISOString()}`
            : "never used";
          console.log(`${row.name}\t${row.scopes.join(",")}\t${state}\t${used}`);
        }
      }
    } catch (error) {
      if (error instanceof AppError && error.statusCode < 500) throw new KnownError(error.message);
      throw error;
    }
  });
}
