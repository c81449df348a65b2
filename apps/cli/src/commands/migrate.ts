import { createLogger, loadConfig, migrateDatabase } from "@assay/server";

export const migrateUsage = `Usage: assay migrate

Applies the database migrations that are not applied yet, then exits, without starting the
server. Uses DATABASE_URL when set, otherwise the embedded PostgreSQL in ASSAY_DATA_DIR.

Examples:
  npx assay migrate
  DATABASE_URL=postgres://postgres@127.0.0.1:5432/assay npx assay migrate`;

export async function migrateCommand(): Promise<void> {
  const config = loadConfig();
  const applied = await migrateDatabase(config, createLogger(config.logLevel));
  console.log(
    applied.length === 0
      ? "The database is up to date; no migration to apply."
      : `Applied migrations ${applied.join(", ")}.`,
  );
}
