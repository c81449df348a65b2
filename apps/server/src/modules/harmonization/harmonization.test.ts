import type { DhRun } from "@assay/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startDhDemoApp, type DhDemoApp } from "../../../test/dh-demo-app.js";

/**
 * Run Report end to end on the example configuration's demo environments: the real app, a
 * pg-boss job, the connectors reading schemas in PostgreSQL and NDJSON files (plain and gzip).
 */

let demo: DhDemoApp;
beforeAll(async () => {
  demo = await startDhDemoApp();
});
afterAll(async () => {
  await demo?.close();
});

const start = (...args: Parameters<DhDemoApp["start"]>) => demo.start(...args);
const finished = (id: number) => demo.finished(id);
const byEntity = (run: DhRun) => new Map(run.rows.map((r) => [r.entity, r]));

describe("Run Report", () => {
  it("needs sign-in and changes nothing without it", async () => {
    const res = await start(
      { platform: "legacy", type: "sql", envType: "dev", env: "legacy-dev" },
      demo.anonymous,
    );
    expect(res.statusCode).toBe(401);
    const { rows } = await demo.database.db.pool.query("SELECT id FROM dh_runs");
    expect(rows).toEqual([]);
  });

  it("refuses NextGen sql, an unknown environment and a Global run without schema with 400", async () => {
    const cases = [
      { platform: "nextGen", type: "sql", envType: "dev", env: "nextgen-fhir-dev" },
      { platform: "legacy", type: "sql", envType: "dev", env: "nope" },
      { platform: "legacy", type: "sql", envType: "stage", env: "legacy-dev" },
      { platform: "global", type: "sql", envType: "dev", env: "" },
      { platform: "legacy", type: "sql", envType: "dev", env: "legacy-dev", sql: "DROP" },
    ];
    for (const payload of cases) {
      const res = await start(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error.message).toBeTruthy();
    }
  });

  it("compares Legacy sql counts: equal, unequal and a missing table marked Failed", async () => {
    const first = await start({
      platform: "legacy",
      type: "sql",
      envType: "dev",
      env: "legacy-dev",
    });
    const second = await start({
      platform: "legacy",
      type: "sql",
      envType: "dev",
      env: "legacy-dev",
    });
    expect(first.statusCode).toBe(202);
    // A second Run Report while the first is queued or running joins it.
    expect(second.statusCode).toBe(200);
    expect(second.json().id).toBe(first.json().id);

    const run = await finished(first.json().id);
    const rows = byEntity(run);
    expect(run.state).toBe("done");
    expect(rows.get("Subjects")).toMatchObject({
      sourceCount: 1200,
      destinationCount: 1200,
      difference: 0,
      status: "Success",
    });
    expect(rows.get("Visits")).toMatchObject({
      sourceCount: 3400,
      destinationCount: 3398,
      difference: -2,
      status: "Unequal Counts",
    });
    expect(rows.get("Queries")?.status).toBe("Failed");
    expect(rows.get("Queries")?.error).toMatch(/does not exist/);
    expect(run.totals).toEqual({
      pending: 0,
      loading: 0,
      success: 4,
      failed: 1,
      unequal: 1,
      total: 6,
    });

    const report = await demo.user.inject({
      method: "GET",
      url: "/v1/dh/report/legacy/sql/legacy-dev",
    });
    expect(report.json().data.map((r: { entity: string }) => r.entity)).toContain("Diary Entries");

    const csv = await demo.user.inject({ method: "GET", url: `/v1/dh/runs/${run.id}/csv` });
    expect(csv.headers["content-type"]).toMatch(/text\/csv/);
    expect(csv.body.split("\r\n")[0]).toMatch(
      /^entity,status,sourceCount,destinationCount,difference/,
    );
    expect(csv.body).toContain("Visits,Unequal Counts,3400,3398,-2");
  });

  it("counts NDJSON documents, plain and gzip, against the source tables (Legacy noSql)", async () => {
    const res = await start({
      platform: "legacy",
      type: "noSql",
      envType: "dev",
      env: "legacy-docs-dev",
    });
    const rows = byEntity(await finished(res.json().id));
    expect(rows.get("Subjects")).toMatchObject({
      sourceCount: 1200,
      destinationCount: 1200,
      status: "Done",
      docPath: "legacy/subjects/",
    });
    expect(rows.get("Consents")).toMatchObject({ destinationCount: 1175, difference: -5 });
    expect(rows.get("Visits")?.lastUpdated).toMatch(/^\d{4}-/);
  });

  it("compares FHIR, FHIR-lite, DocumentDB and Redshift counts per entity with per-file rows", async () => {
    const res = await start({
      platform: "nextGen",
      type: "noSql",
      envType: "dev",
      env: "nextgen-fhir-dev",
    });
    const rows = byEntity(await finished(res.json().id));
    expect(rows.get("Patient")).toMatchObject({
      fhirCount: 500,
      fhirLiteCount: 500,
      docdbCount: 500,
      redshiftCount: 500,
      status: "Success",
    });
    expect(rows.get("Observation")).toMatchObject({ fhirLiteCount: 1599, status: "Count Error" });
    expect(rows.get("QuestionnaireResponse")).toMatchObject({
      redshiftCount: 290,
      status: "Unequal Counts",
    });
    const consent = rows.get("Consent");
    expect(consent?.status).toBe("Success");
    expect(consent?.files?.find((f) => f.table === "consent_archive")).toMatchObject({
      missingInS3: true,
      docdb: { count: 0 },
    });

    const paths = await demo.user.inject({
      method: "POST",
      url: "/v1/dh/nosql/getFHIRDocumentPaths/nextGen/nextgen-fhir-dev/dev",
      payload: { table: "Observation" },
    });
    expect(paths.json().data).toEqual([
      expect.objectContaining({
        table: "observation",
        status: "Failed",
        difference: 1,
        jsonFile: { name: "fhir/Observation/observation.ndjson", count: 1600 },
      }),
    ]);

    // getFHIRBucketData: the entity the screen holds (fhirBuckets) answered with its counts.
    const bucketData = (fhirBuckets: unknown) =>
      demo.user.inject({
        method: "POST",
        url: "/v1/dh/nosql/getFHIRBucketData/nextGen/nextgen-fhir-dev/dev",
        payload: { fhirBuckets },
      });
    const observation = await bucketData({ entity: "Observation", jsonFHIRBuckets: [] });
    expect(observation.statusCode).toBe(200);
    expect(observation.json().data).toMatchObject({
      entity: "Observation",
      status: "Count Error",
      fhirCount: 1600,
      fhirLiteCount: 1599,
      docdbCount: 1600,
      redshiftCount: 1600,
      jsonFHIRBuckets: ["fhir/Observation/observation.ndjson"],
      docdbCollection: [{ name: "dh_demo_docdb.observation" }],
    });
    expect(observation.json().data.files).toBeUndefined();
    const unknown = await bucketData({ entity: "Nope" });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toMatch(/No FHIR entity Nope/);
    expect((await bucketData("Observation")).statusCode).toBe(400);
  });

  it("lists SFDC documents and their S3 records, MySQL records and discrepancies", async () => {
    const res = await start({ platform: "sfdc", type: "noSql", envType: "dev", env: "sfdc-dev" });
    const run = await finished(res.json().id);
    expect(run.rows.map((r) => r.status)).toEqual(["Success", "Failed", "Success"]);
    const second = run.rows[1];
    expect(second?.docPath).toBe("sfdc/leads/leads-2026-11-25.ndjson.gz");
    const data = await demo.user.inject({
      method: "POST",
      url: "/v1/dh/nosql/getSFDCDocumentData/sfdc/sfdc-dev/dev",
      payload: { bucket: { docPath: second?.docPath } },
    });
    const body = data.json().data;
    expect(body.s3Data).toHaveLength(30);
    expect(body.mySqlData).toHaveLength(29);
    expect(body.descrepancies.map((r: { lead_id: string }) => r.lead_id).sort()).toEqual([
      "L00030",
      "L00040",
    ]);
    expect(Object.keys(body.s3Data[0])).toHaveLength(12);
  });

  it("compares every table of a global schema per environment, errors per table", async () => {
    const dev = await start({
      platform: "global",
      type: "sql",
      envType: "dev",
      env: "",
      schema: "trial",
    });
    const devRun = byEntity(await finished(dev.json().id));
    expect(devRun.get("Global US Dev (demo)")?.status).toBe("Success");
    const eu = devRun.get("Global EU Dev (demo)");
    expect(eu?.status).toBe("Unequal Counts");
    expect(eu?.tableCounts).toContainEqual([
      "study_site",
      { mySqlCount: 60, redshiftCount: 59, errors: [] },
    ]);

    const stage = await start({
      platform: "global",
      type: "sql",
      envType: "stage",
      env: "",
      schema: "reference",
    });
    const [row] = (await finished(stage.json().id)).rows;
    expect(row?.status).toBe("Failed");
    const language = row?.tableCounts?.find(([table]) => table === "language");
    expect(language?.[1].errors[0]).toMatch(/^Redshift: .*does not exist/);

    const global = await demo.user.inject({
      method: "GET",
      url: "/v1/dh/queryGlobalData/global/reference?envType=stage",
    });
    expect(global.json().data).toHaveLength(1);
  });

  it("reopens an environment's runs and tells what changed since the previous one", async () => {
    const again = await start({
      platform: "legacy",
      type: "sql",
      envType: "dev",
      env: "legacy-dev",
    });
    await demo.database.db.pool.query(
      "INSERT INTO dh_demo_legacy_redshift.visits VALUES (3399), (3400)",
    );
    const run = await finished(again.json().id);
    const changes = await demo.user.inject({ method: "GET", url: `/v1/dh/runs/${run.id}/changes` });
    expect(changes.json().changes).toEqual([
      {
        entity: "Visits",
        before: { status: "Unequal Counts", difference: -2 },
        after: { status: "Success", difference: 0 },
      },
    ]);
    const list = await demo.user.inject({
      method: "GET",
      url: "/v1/dh/runs?platform=legacy&type=sql&env=legacy-dev",
    });
    const ids = list.json().data.map((r: { id: number }) => r.id);
    expect(ids).toHaveLength(2);
    expect(ids[0]).toBe(run.id);
  });
});
