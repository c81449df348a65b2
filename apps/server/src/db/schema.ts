import type { Generated } from "kysely";

/** Table types for Kysely, one interface per table created by ../../migrations. */
export interface SchemaMigrationsTable {
  version: number;
  name: string;
  checksum: string;
  applied_at: Generated<Date>;
}

export interface SettingsTable {
  id: Generated<number>;
  name: string;
  description: string;
  is_active: boolean;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface Database {
  schema_migrations: SchemaMigrationsTable;
  settings: SettingsTable;
}
