import type { RmsImportResult, TraceabilityMatrix } from "@assay/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertTest } from "../../../test/factories.js";
import { buildTagApps, type TagApps } from "../../../test/tag-apps.js";
import { createTestDatabase, type TestDatabase } from "../../../test/test-database.js";
import { storeSyncedRequirements } from "./traceability.service.js";

/*
 * Issue 32 item 1: an import previews (dry_run) and changes nothing; a requirement that leaves
 * the source is archived, and its note, No Automation flag, links and edit history come back
 * when it returns, by a file or by a tracker sync.
 */

let database: TestDatabase;
let apps: TagApps;

const FIRST = [
  "rms,summary,epic,type,bugs",
  "RMS-9101,Sign in with SSO,Access,Story,",
  "RMS-9102,Export a report,Reports,Story,NXL-1|Export hangs|Open",
].join("\n");
const ONE_ROW = ["rms,summary,epic,type,bugs", "RMS-9101,Sign in with SSO v2,Access,Story,"].join(
  "\n",
);

const importFile = async (content: string, dryRun?: boolean) => {
  const res = await apps.user.inject({
    method: "POST",
    url: "/v1/traceability/rms/import",
    payload: { fileName: "rms.csv", content, ...(dryRun === undefined ? {} : { dry_run: dryRun }) },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as RmsImportResult;
};
const matrix = async (): Promise<TraceabilityMatrix> =>
  (await apps.anonymous.inject({ method: "GET", url: "/v1/traceability-matrix" })).json();
const detailOf = async (rms: string) =>
  (await matrix()).rows.find((row) => row.rmsDetail.rms === rms);
const keys = (list: { items: { rms: string }[] }) => list.items.map((item) => item.rms);

let noteId = 0;
let linkedTest = 0;

beforeAll(async () => {
  database = await createTestDatabase();
  apps = await buildTagApps(database);
  await importFile(FIRST);
  noteId = (await detailOf("RMS-9102"))!.rmsDetail.id;
  const put = await apps.user.inject({
    method: "PUT",
    url: `/v1/traceability/rms/${noteId}`,
    payload: { note: "Covered by the manual export checklist", noTestNeeded: 1 },
  });
  expect(put.statusCode, put.body).toBe(200);
  linkedTest = (await insertTest(database.db, { title: "Export works" })).id;
  const link = await apps.user.inject({
    method: "POST",
    url: `/v1/traceability/rms/${noteId}/links`,
    payload: { testId: linkedTest },
  });
  expect(link.statusCode, link.body).toBeLessThan(300);
});
afterAll(async () => {
  await apps.close();
  await database.drop();
});

async function expectBackWithEverything() {
  const back = await detailOf("RMS-9102");
  expect(back?.rmsDetail).toMatchObject({
    id: noteId,
    note: "Covered by the manual export checklist",
    noTestNeeded: 1,
  });
  expect(back?.testRuns.map((test) => test.testId)).toContain(linkedTest);
  const history = await apps.anonymous.inject({
    method: "GET",
    url: `/v1/traceability/rms/${noteId}/history`,
  });
  expect(history.json()).toHaveLength(1);
}

describe("importing requirements: preview, archive, restore", () => {
  it("dry_run answers what the import would do, with the notes affected, and changes nothing", async () => {
    const before = await matrix();
    const preview = await importFile(ONE_ROW, true);
    expect(preview).toMatchObject({ dryRun: true, importedAt: null, removed: 1 });
    expect(keys(preview.preview.changed)).toEqual(["RMS-9101"]);
    expect(preview.preview.changed.items[0]?.changes).toEqual(["summary"]);
    expect(preview.preview.archived.items).toEqual([
      {
        rms: "RMS-9102",
        summary: "Export a report",
        note: "Covered by the manual export checklist",
        noTestNeeded: 1,
        links: 1,
        changes: [],
      },
    ]);
    expect(preview.preview.added.count).toBe(0);
    expect(await matrix()).toEqual(before);
  });

  it("applying archives the requirement that left the file instead of deleting it", async () => {
    const applied = await importFile(ONE_ROW);
    expect(applied).toMatchObject({ dryRun: false, removed: 1 });
    expect(keys(applied.preview.archived)).toEqual(["RMS-9102"]);
    expect(await detailOf("RMS-9102")).toBeUndefined();
    const { rows } = await database.db.pool.query(
      "SELECT note, archived_at IS NOT NULL AS archived FROM requirements WHERE rms = 'RMS-9102'",
    );
    expect(rows).toEqual([{ note: "Covered by the manual export checklist", archived: true }]);
  });

  it("a file naming it again restores it with its note, flag, links and history", async () => {
    const preview = await importFile(FIRST, true);
    expect(keys(preview.preview.restored)).toEqual(["RMS-9102"]);
    expect(preview.preview.restored.items[0]?.note).toBe("Covered by the manual export checklist");
    await importFile(FIRST);
    await expectBackWithEverything();
  });

  it("a tracker sync archives and restores it the same way", async () => {
    const row = (rms: string, summary: string) => ({ rms, summary, epic: "", type: "", bugs: [] });
    const source = { kind: "jira" as const, query: "project = NXL" };
    await storeSyncedRequirements(database.db, source, [row("RMS-9101", "Sign in")]);
    expect(await detailOf("RMS-9102")).toBeUndefined();
    await storeSyncedRequirements(database.db, source, [
      row("RMS-9101", "Sign in"),
      row("RMS-9102", "Export a report"),
    ]);
    await expectBackWithEverything();
  });

  it("an edit of an archived requirement is refused", async () => {
    await importFile(ONE_ROW);
    const put = await apps.user.inject({
      method: "PUT",
      url: `/v1/traceability/rms/${noteId}`,
      payload: { note: "lost?", noTestNeeded: 0 },
    });
    expect(put.statusCode).toBe(404);
  });
});
