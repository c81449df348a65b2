import { SparkLineChart } from "@mui/x-charts/SparkLineChart";

/** Occurrences per day as small bars (its own chunk: the charts library is large). */
export function TrendSpark({
  data,
  height,
  width,
}: {
  data: number[];
  height: number;
  width?: number;
}) {
  return <SparkLineChart data={data} height={height} width={width} plotType="bar" />;
}
