import type { RmsImportRelease } from "@assay/core";
import type { Transaction } from "kysely";
import type { Db } from "../../db/pool.js";
import type { Database } from "../../db/schema.js";

/**
 * The releases of a requirements file's releases section (migration 0046). Traceability owns
 * the imports, so it owns these tables; the Releases report reads them through importedReleases.
 */

/** Replaces the imported releases with a file's, inside the import's transaction. */
export async function replaceImportedReleases(
  trx: Transaction<Database>,
  importId: number,
  releases: readonly RmsImportRelease[],
): Promise<void> {
  await trx.deleteFrom("imported_releases").execute();
  for (const [position, release] of releases.entries()) {
    const stored = await trx
      .insertInto("imported_releases")
      .values({
        import_id: importId,
        version: release.version,
        released: release.released ?? null,
        released_at: release.releasedAt ?? null,
        position,
      })
      .returning("id")
      .executeTakeFirstOrThrow();
    if (release.incidents.length > 0)
      await trx
        .insertInto("imported_release_incidents")
        .values(release.incidents.map((incident) => ({ release_id: stored.id, ...incident })))
        .execute();
  }
}

export interface ImportedRelease {
  version: string;
  released: boolean | null;
  releasedAt: string | null;
  incidents: number;
  closed: number;
  /** The file the release came from, and when it was imported. */
  fileName: string;
  importedAt: Date;
}

/** The imported releases in the file's order, with their incident counts; [] when none. */
export async function importedReleases(db: Db): Promise<ImportedRelease[]> {
  const rows = await db.kysely
    .selectFrom("imported_releases as r")
    .innerJoin("requirement_imports as i", "i.id", "r.import_id")
    .leftJoin("imported_release_incidents as n", "n.release_id", "r.id")
    .select((eb) => [
      "r.version",
      "r.released",
      "r.released_at",
      "i.file_name",
      "i.imported_at",
      eb.fn.count<string>("n.key").as("incidents"),
      eb.fn.count<string>("n.key").filterWhere("n.closed", "=", true).as("closed"),
    ])
    .groupBy(["r.id", "i.id"])
    .orderBy("r.position")
    .execute();
  return rows.map((row) => ({
    version: row.version,
    released: row.released,
    releasedAt: row.released_at,
    incidents: Number(row.incidents),
    closed: Number(row.closed),
    fileName: row.file_name,
    importedAt: new Date(row.imported_at),
  }));
}
