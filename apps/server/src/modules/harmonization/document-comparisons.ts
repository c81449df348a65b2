import { SFDC_COLUMNS, type DhEnvironment, type DhFileRecord } from "@assay/core";
import type { Connector, DocumentInfo } from "./connectors/index.js";
import type { RunPlan } from "./run-plan.js";

/** Records of one SFDC document read at most: the grids show them all, the run stays bounded. */
export const SFDC_RECORD_LIMIT = 1_000;

type FhirSettings = NonNullable<DhEnvironment["fhir"]>;
type SfdcSettings = NonNullable<DhEnvironment["sfdc"]>;

/** A file's name after its prefix, without .ndjson / .json / .gz: "Patient.ndjson.gz" -> Patient. */
export function fileTable(key: string, prefix: string): string {
  return key
    .slice(prefix.length)
    .replace(/^\/+/, "")
    .replace(/(\.ndjson|\.json)?(\.gz)?$/i, "");
}

async function countFiles(connector: Connector, prefix: string) {
  const documents = await connector.listDocuments(prefix);
  const counts = new Map<string, { name: string; count: number }>();
  let total = 0;
  for (const document of documents) {
    const count = await connector.countDocument(document.key);
    total += count;
    counts.set(fileTable(document.key, prefix), { name: document.key, count });
  }
  return { documents, counts, total };
}

/** FHIR to FHIR-lite: NDJSON files of both prefixes, the DocumentDB collections and Redshift. */
export function fhirPlan(settings: FhirSettings): RunPlan {
  return {
    kind: "fhir",
    rows: async () =>
      settings.entities.map((e, id) => ({
        id,
        entity: e.entity,
        status: "Pending",
        docdbCollection: e.docdbCollections.map((name) => ({ name })),
      })),
    task: async (row, sources) => {
      const entity = settings.entities[row.id];
      if (!entity) throw new Error(`no entity ${row.id}`);
      const [files, docdb, redshift] = await Promise.all([
        sources(settings.files),
        sources(settings.docdb),
        sources(settings.redshift),
      ]);
      const fhir = await countFiles(files, entity.fhirPrefix);
      const lite = await countFiles(files, entity.fhirLitePrefix);
      // Keyed like the files: a collection's name without its database or schema part.
      const collections = new Map<string, number>();
      for (const name of entity.docdbCollections)
        collections.set(name.split(".").pop() ?? name, await docdb.count(name));
      const redshiftCount = await redshift.count(entity.redshiftTable);
      const docdbCount = [...collections.values()].reduce((a, b) => a + b, 0);
      const tables = new Set([...collections.keys(), ...fhir.counts.keys(), ...lite.counts.keys()]);
      const fileRows: DhFileRecord[] = [...tables].map((table) => {
        const json = fhir.counts.get(table);
        const liteFile = lite.counts.get(table);
        const docdbTableCount = collections.get(table) ?? null;
        const present = [json?.count, liteFile?.count, docdbTableCount].filter(
          (c): c is number => c !== undefined && c !== null,
        );
        const spread = present.length > 0 ? Math.max(...present) - Math.min(...present) : null;
        const complete = json !== undefined && liteFile !== undefined && docdbTableCount !== null;
        return {
          table,
          status: complete && spread === 0 ? "Success" : "Failed",
          jsonFile: { name: json?.name ?? null, count: json?.count ?? null },
          liteFile: { name: liteFile?.name ?? null, count: liteFile?.count ?? null },
          docdb: { count: docdbTableCount },
          difference: spread,
          missingInS3: collections.has(table) && json === undefined,
        };
      });
      const threeEqual = fhir.total === lite.total && lite.total === docdbCount;
      return {
        ...row,
        fhirCount: fhir.total,
        fhirLiteCount: lite.total,
        docdbCount,
        redshiftCount,
        difference: redshiftCount - fhir.total,
        jsonFHIRBuckets: fhir.documents.map((d) => d.key),
        jsonFHIRLiteBuckets: lite.documents.map((d) => d.key),
        files: fileRows,
        bucket: files.where,
        status: !threeEqual
          ? "Count Error"
          : redshiftCount !== fhir.total
            ? "Unequal Counts"
            : "Success",
      };
    },
  };
}

const text = (value: unknown) =>
  value === null || value === undefined
    ? ""
    : value instanceof Date
      ? value.toISOString()
      : String(value);

/** The twelve columns of a record, as text, so a file's "1990-01-02" equals MySQL's date. */
function pick(record: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(SFDC_COLUMNS.map((c) => [c, text(record[c])]));
}

/** SFDC exports: each document's lead records against the MySQL rows with the same keys. */
export function sfdcPlan(settings: SfdcSettings): RunPlan {
  let documents: DocumentInfo[] = [];
  return {
    kind: "sfdc",
    rows: async (sources) => {
      const files = await sources(settings.files);
      documents = await files.listDocuments(settings.prefix);
      return documents.map((d, id) => ({
        id,
        entity: d.key.slice(settings.prefix.length).replace(/^\/+/, ""),
        status: "Pending",
        bucket: files.where,
        docPath: d.key,
        lastUpdated: d.lastModified?.toISOString() ?? null,
      }));
    },
    task: async (row, sources) => {
      const document = documents[row.id];
      if (!document) throw new Error(`no document ${row.id}`);
      const [files, mysql] = await Promise.all([sources(settings.files), sources(settings.mysql)]);
      const query = { key: settings.key, keys: [], columns: SFDC_COLUMNS };
      const file = await files.readRecords(document.key, query, SFDC_RECORD_LIMIT);
      const s3Data = file.records.map(pick);
      const keys = [...new Set(s3Data.map((r) => r[settings.key] ?? "").filter(Boolean))];
      const db = await mysql.readRecords(settings.table, { ...query, keys }, SFDC_RECORD_LIMIT);
      const mySqlData = db.records.map(pick);
      const byKey = new Map(mySqlData.map((r) => [r[settings.key], r]));
      const combinedResultData = s3Data.map((record) => {
        const match = byKey.get(record[settings.key]);
        const same = match !== undefined && SFDC_COLUMNS.every((c) => match[c] === record[c]);
        return { exist: same, record };
      });
      const descrepancies = combinedResultData.filter((c) => !c.exist).map((c) => c.record);
      return {
        ...row,
        sourceCount: s3Data.length,
        destinationCount: mySqlData.length,
        difference: mySqlData.length - s3Data.length,
        status: descrepancies.length === 0 ? "Success" : "Failed",
        error:
          descrepancies.length === 0
            ? null
            : `${descrepancies.length} record(s) missing or different in MySQL`,
        data: {
          status: descrepancies.length === 0 ? "Success" : "Failed",
          s3Data,
          mySqlData,
          descrepancies,
          combinedResultData,
          truncated: file.truncated,
        },
      };
    },
  };
}
