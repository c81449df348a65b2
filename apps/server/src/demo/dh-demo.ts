import { mkdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { SFDC_COLUMNS } from "@assay/core";
import type { Db } from "../db/pool.js";
import { createCountTables, createRecordTable, hasDhDemoSchemas } from "./dh-demo.repo.js";

/**
 * Data harmonization's demo stores, named by assay.config.example.yaml: schemas in Assay's
 * PostgreSQL standing for the MySQL, Redshift and DocumentDB sides, and NDJSON files (some
 * gzipped) in the local object store's folder standing for the S3 buckets. A few differences
 * are deliberate, so each platform's view shows every outcome: equal, unequal, Count Error, a
 * missing table (Failed) and SFDC discrepancies.
 */

type Table = { schema: string; table: string; rows: number; missing?: number[] };

const legacy = {
  subjects: 1200,
  sites: 48,
  visits: 3400,
  diary_entries: 5100,
  consents: 1180,
  queries: 260,
};
const globalSizes: Record<string, number> = {
  study: 40,
  study_site: 120,
  study_arm: 80,
  admin_user: 300,
  admin_role: 12,
  notification: 5000,
  notification_template: 45,
  scheduled_job: 60,
  job_run: 2400,
  tenant: 8,
  tenant_setting: 96,
  country: 249,
  language: 60,
};

const without = (sizes: Record<string, number>, name: string) =>
  Object.fromEntries(Object.entries(sizes).filter(([table]) => table !== name));

function tables(): Table[] {
  const out: Table[] = [];
  const add = (schema: string, sizes: Record<string, number>) =>
    Object.entries(sizes).forEach(([table, rows]) => out.push({ schema, table, rows }));
  add("dh_demo_legacy_mysql", legacy);
  // Redshift lost two visits (ids 1207 and 2950: Find missing rows lists them) and never got
  // the queries table.
  add("dh_demo_legacy_redshift", without(legacy, "queries"));
  const visits = out.find((t) => t.schema === "dh_demo_legacy_redshift" && t.table === "visits");
  if (visits) visits.missing = [1207, 2950];
  add("dh_demo_docdb", {
    patient: 500,
    observation: 1600,
    questionnaireresponse: 300,
    consent: 200,
    consent_archive: 0,
  });
  add("dh_demo_nextgen_redshift", {
    patient: 500,
    observation: 1600,
    questionnaireresponse: 290,
    consent: 200,
  });
  add("dh_demo_global_us_mysql", globalSizes);
  add("dh_demo_global_us_redshift", globalSizes);
  const half = Object.fromEntries(
    Object.entries(globalSizes).map(([t, n]) => [t, Math.ceil(n / 2)]),
  );
  add("dh_demo_global_eu_mysql", half);
  add("dh_demo_global_eu_redshift", {
    ...half,
    study_site: (half.study_site ?? 0) - 1,
    job_run: (half.job_run ?? 0) - 2,
  });
  const stage = without(globalSizes, "language");
  add("dh_demo_global_stage_redshift", stage);
  return out;
}

const resources = (type: string, count: number) =>
  Array.from({ length: count }, (_, i) => ({
    resourceType: type,
    id: `${type.toLowerCase()}-${i + 1}`,
  }));

const FIRST = ["Ana", "Ben", "Chloe", "Dev", "Elena", "Farid", "Grace", "Hugo", "Ines", "Jon"];
const LAST = ["Silva", "Okafor", "Nguyen", "Schmidt", "Rossi", "Kowalski", "Haddad", "Berg"];
const STATES = ["CA", "NY", "TX", "WA", "FL", "IL"];

function lead(n: number): Record<string, string> {
  return {
    trial_id: `TR-${100 + (n % 3)}`,
    lead_id: `L${String(n).padStart(5, "0")}`,
    account_id: `A${String(1000 + (n % 40)).padStart(5, "0")}`,
    first_name: FIRST[n % FIRST.length] ?? "",
    last_name: LAST[n % LAST.length] ?? "",
    gender: n % 2 === 0 ? "F" : "M",
    birth_date: `19${60 + (n % 40)}-0${1 + (n % 9)}-1${n % 10}`,
    phone: `+1-555-01${String(n % 100).padStart(2, "0")}`,
    state: STATES[n % STATES.length] ?? "",
    postal_code: String(90000 + n * 7),
    time_zone: n % 2 === 0 ? "America/Los_Angeles" : "America/New_York",
    ethnicity: n % 3 === 0 ? "Hispanic or Latino" : "Not Hispanic or Latino",
  };
}

interface DemoFile {
  key: string;
  records: object[];
  gzip?: boolean;
}

function files(leadsInFiles: Record<string, string>[][]): DemoFile[] {
  return [
    { key: "legacy/subjects/part-0001.ndjson", records: resources("Subject", 600) },
    { key: "legacy/subjects/part-0002.ndjson.gz", records: resources("Subject", 600), gzip: true },
    { key: "legacy/visits/part-0001.ndjson.gz", records: resources("Visit", 3400), gzip: true },
    // Five consents never reached the bucket.
    { key: "legacy/consents/part-0001.ndjson", records: resources("Consent", 1175) },
    { key: "fhir/Patient/patient.ndjson", records: resources("Patient", 500) },
    { key: "fhir-lite/Patient/patient.ndjson.gz", records: resources("Patient", 500), gzip: true },
    { key: "fhir/Observation/observation.ndjson", records: resources("Observation", 1600) },
    // One observation was lost by the FHIR-lite transform: a Count Error.
    { key: "fhir-lite/Observation/observation.ndjson", records: resources("Observation", 1599) },
    {
      key: "fhir/QuestionnaireResponse/questionnaireresponse.ndjson",
      records: resources("QuestionnaireResponse", 300),
    },
    {
      key: "fhir-lite/QuestionnaireResponse/questionnaireresponse.ndjson",
      records: resources("QuestionnaireResponse", 300),
    },
    { key: "fhir/Consent/consent.ndjson.gz", records: resources("Consent", 200), gzip: true },
    { key: "fhir-lite/Consent/consent.ndjson", records: resources("Consent", 200) },
    ...leadsInFiles.map((records, i) => ({
      key: `sfdc/leads/leads-2026-11-2${4 + i}.ndjson${i === 1 ? ".gz" : ""}`,
      records,
      gzip: i === 1,
    })),
  ];
}

/** The marker schema: present means the demo stores were made (they are made once). */
const MARKER = "dh_demo_legacy_mysql";

/** Makes the demo stores unless they exist; `objectsDir` is the local object store's folder. */
export async function loadDhDemo(db: Db, dataDir: string): Promise<boolean> {
  if (await hasDhDemoSchemas(db, MARKER)) return false;
  const leads = [1, 26, 56].map((start, i) =>
    Array.from({ length: [25, 30, 20][i] ?? 0 }, (_, j) => lead(start + j)),
  );
  // MySQL lacks one lead of the second file and has another's phone changed.
  const mysqlLeads = leads
    .flat()
    .filter((l) => l.lead_id !== "L00030")
    .map((l) => (l.lead_id === "L00040" ? { ...l, phone: "+1-555-0199" } : l));
  const root = path.join(dataDir, "objects", "dh-demo");
  await rm(root, { recursive: true, force: true });
  for (const file of files(leads)) {
    const text = file.records.map((r) => JSON.stringify(r)).join("\n") + "\n";
    const target = path.join(root, ...file.key.split("/"));
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, file.gzip ? gzipSync(text) : text);
  }
  await createRecordTable(db, "dh_demo_sfdc_mysql", "leads", SFDC_COLUMNS, mysqlLeads);
  // Last: the marker schema is in this batch, so a failed load is made again next start.
  await createCountTables(db, tables());
  return true;
}
