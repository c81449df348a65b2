import type { DhRow, DhRun } from "@assay/core";
import { BarChart } from "@mui/x-charts/BarChart";

/** Spec section 9: the data harmonization chart is 500 px high. */
export const DH_CHART_HEIGHT = 500;

type Series = { label: string; value: (row: DhRow) => number | null | undefined };

const sum = (values: (number | null)[]) => values.reduce<number>((a, b) => a + (b ?? 0), 0);

/** Which counts stand for source and destination, per comparison kind. */
function seriesOf(kind: DhRun["kind"]): Series[] {
  if (kind === "fhir")
    return [
      { label: "FHIR File", value: (r) => r.fhirCount },
      { label: "FHIR LITE", value: (r) => r.fhirLiteCount },
      { label: "Mongo DB", value: (r) => r.docdbCount },
      { label: "Redshift", value: (r) => r.redshiftCount },
    ];
  if (kind === "global")
    return [
      {
        label: "MySQL",
        value: (r) => (r.tableCounts ? sum(r.tableCounts.map(([, c]) => c.mySqlCount)) : null),
      },
      {
        label: "Redshift",
        value: (r) => (r.tableCounts ? sum(r.tableCounts.map(([, c]) => c.redshiftCount)) : null),
      },
    ];
  return [
    { label: kind === "sfdc" ? "S3 Records" : "Source", value: (r) => r.sourceCount },
    { label: kind === "sfdc" ? "My Sql Records" : "Destination", value: (r) => r.destinationCount },
  ];
}

/** Source against destination counts per entity, as bars. */
export function DhChart({ run }: { run: DhRun }) {
  const rows = run.rows;
  return (
    <BarChart
      height={DH_CHART_HEIGHT}
      xAxis={[
        { scaleType: "band", data: rows.map((r) => r.entity), tickLabelStyle: { fontSize: 11 } },
      ]}
      series={seriesOf(run.kind).map((s) => ({
        label: s.label,
        data: rows.map((r) => s.value(r) ?? null),
      }))}
      margin={{ left: 16, right: 16 }}
    />
  );
}
