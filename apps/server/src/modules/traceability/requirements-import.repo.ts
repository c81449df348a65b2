import { sql } from "kysely";
import type { RmsImportRelease, RmsImportRow } from "@assay/core";
import type { Db } from "../../db/pool.js";
import { replaceImportedReleases } from "./imported-releases.repo.js";
import { uniqueBugs, type StoredRequirement } from "./requirements-plan.js";

/**
 * A requirements import's writes (file, Jira or Spira): read what is stored, let the caller's
 * plan say what changes, then archive, restore and upsert in one transaction, so a reader sees
 * the old set or the new one and the plan is made from what it changes.
 */

export interface ImportSource {
  fileName: string;
  importedBy: string;
  sourceKind?: "file" | "jira" | "spira";
}

/** Every stored requirement, archived ones too, with its bugs' signature and its live links. */
async function storedRequirements(trx: Db["kysely"], lock: boolean): Promise<StoredRequirement[]> {
  // FOR UPDATE: two imports at once apply one after the other, each planned from the other's end.
  const { rows } = await sql<StoredRequirement>`
    SELECT r.id, r.rms, r.summary, r.epic, r.type, r.note, r.no_test_needed,
           r.archived_at IS NOT NULL AS archived,
           coalesce((SELECT string_agg(b.key || '|' || b.summary || '|' || b.status, E'\n'
                                       ORDER BY b.key COLLATE "C")
                     FROM requirement_bugs b WHERE b.requirement_id = r.id), '') AS bugs,
           (SELECT count(*) FROM requirement_test_links l
            WHERE l.rms = upper(r.rms) AND l.removed_at IS NULL)::int AS links
    FROM requirements r
    ${lock ? sql`FOR UPDATE OF r` : sql``}
  `.execute(trx);
  return rows.map((row) => ({ ...row, id: Number(row.id), links: Number(row.links) }));
}

/**
 * Plans an import from the stored requirements and, unless `dryRun`, applies it: the source's
 * requirements are added or updated (their note and flag kept; an archived one restored), the
 * ones it no longer names are archived with who and when. Nothing is deleted.
 */
export async function storeRequirements<P>(
  db: Db,
  source: ImportSource,
  rows: readonly RmsImportRow[],
  releases: readonly RmsImportRelease[] | null,
  options: { dryRun: boolean; plan: (current: StoredRequirement[]) => P },
): Promise<{ plan: P; importedAt: Date | null }> {
  return db.kysely.transaction().execute(async (trx) => {
    const plan = options.plan(await storedRequirements(trx, !options.dryRun));
    if (options.dryRun) return { plan, importedAt: null };
    const now = new Date();
    const keys = rows.map((row) => row.rms.toUpperCase());
    await trx
      .updateTable("requirements")
      .set({ archived_at: now, archived_by: source.importedBy })
      .where("archived_at", "is", null)
      .where(sql<string>`upper(rms)`, "not in", keys.length > 0 ? keys : [""])
      .execute();
    let bugs = 0;
    for (const [position, row] of rows.entries()) {
      const fields = {
        rms: row.rms,
        summary: row.summary,
        epic: row.epic,
        type: row.type,
        position,
      };
      const stored = await trx
        .insertInto("requirements")
        .values(fields)
        .onConflict((oc) =>
          oc
            .expression(sql`upper(rms)`)
            .doUpdateSet({ ...fields, archived_at: null, archived_by: null }),
        )
        .returning("id")
        .executeTakeFirstOrThrow();
      await trx.deleteFrom("requirement_bugs").where("requirement_id", "=", stored.id).execute();
      const unique = uniqueBugs(row.bugs);
      if (unique.length > 0) {
        await trx
          .insertInto("requirement_bugs")
          .values(unique.map((bug) => ({ requirement_id: stored.id, ...bug })))
          .execute();
      }
      bugs += unique.length;
    }
    const imported = await trx
      .insertInto("requirement_imports")
      .values({
        source_kind: source.sourceKind ?? "file",
        file_name: source.fileName,
        imported_by: source.importedBy,
        requirements: rows.length,
        bugs,
      })
      .returning(["id", "imported_at"])
      .executeTakeFirstOrThrow();
    // No releases section: the releases of an earlier file stay (a CSV file cannot carry them).
    if (releases !== null) await replaceImportedReleases(trx, imported.id, releases);
    return { plan, importedAt: imported.imported_at };
  });
}
