import Skeleton from "@mui/material/Skeleton";
import { lazy, Suspense } from "react";

const TrendSpark = lazy(async () => ({ default: (await import("./TrendSpark")).TrendSpark }));

/** The trend's bars, loaded with the charts library when first shown. */
export function LazyTrend(props: { data: number[]; height: number; width?: number }) {
  return (
    <Suspense
      fallback={<Skeleton variant="rectangular" height={props.height} width={props.width} />}
    >
      <TrendSpark {...props} />
    </Suspense>
  );
}
