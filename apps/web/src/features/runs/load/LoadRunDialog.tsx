import { formatUtc, regionLabel, type LoadRun } from "@assay/core";
import Close from "@mui/icons-material/Close";
import OpenInNew from "@mui/icons-material/OpenInNew";
import ShowChart from "@mui/icons-material/ShowChart";
import Button from "@mui/material/Button";
import Box from "@mui/material/Box";
import Dialog from "@mui/material/Dialog";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import IconButton from "@mui/material/IconButton";
import Link from "@mui/material/Link";
import Skeleton from "@mui/material/Skeleton";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import type { ReactNode } from "react";
import { Link as RouterLink } from "react-router";
import { trendHref } from "../compare/compare-url";
import { useCatalog } from "../../../api/use-catalog";
import { LoadStatsTable } from "./LoadStatsTable";
import { useLoadRun } from "./use-load-run";
import { ResultsError } from "../view/ResultsError";

export interface LoadRunDialogProps {
  runKey: string;
  open: boolean;
  onClose(): void;
}

/**
 * Where the report opens: a path or http(s) URL as stored, a bare object key through the object
 * store. Any other scheme (javascript:, data:) is not linked.
 */
export function reportHref(location: string | null): string | null {
  if (!location) return null;
  if (location.startsWith("/") && !location.startsWith("//")) return location;
  if (/^https?:\/\//i.test(location)) return location;
  if (/^[A-Za-z0-9][A-Za-z0-9/_.-]*$/.test(location)) return `/v1/objects/${location}`;
  return null;
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <Typography component="dt" color="text.secondary">
        {label}
      </Typography>
      <Typography component="dd" sx={{ m: 0, overflowWrap: "anywhere" }}>
        {children ?? "–"}
      </Typography>
    </>
  );
}

function RunFields({ run }: { run: LoadRun }) {
  const catalog = useCatalog();
  const report = reportHref(run.report_location);
  return (
    <Box
      component="dl"
      sx={{
        display: "grid",
        gridTemplateColumns: { xs: "max-content 1fr", md: "repeat(2, max-content 1fr)" },
        columnGap: 2,
        rowGap: 0.75,
        m: 0,
      }}
    >
      <Field label="Env">{run.env}</Field>
      <Field label="Host">{run.host}</Field>
      <Field label="Test file">{run.test_file}</Field>
      <Field label="Executor">{run.executor}</Field>
      <Field label="Users">{run.users}</Field>
      <Field label="Run time">{run.run_time}</Field>
      <Field label="Spawn rate">
        {run.spawn_rate === null ? null : `${run.spawn_rate} user/sec`}
      </Field>
      <Field label="Load region">
        <span title={run.load_region ?? undefined}>
          {regionLabel(run.load_region, catalog.data?.regionLabels)}
        </span>
      </Field>
      <Field label="Created at">
        <span title={run.created_at}>{formatUtc(run.created_at)}</span>
      </Field>
      <Field label="Report">
        {report && (
          <Link
            href={report}
            target="_blank"
            rel="noopener noreferrer"
            sx={{ display: "inline-flex", alignItems: "center", gap: 0.5 }}
          >
            Open the stored report
            <OpenInNew sx={{ fontSize: 14 }} aria-hidden />
          </Link>
        )}
      </Field>
    </Box>
  );
}

/**
 * A load run (spec section 2, Load tab): its settings, a link to the stored report, and its
 * per-endpoint statistics with the aggregated row last.
 */
export function LoadRunDialog({ runKey, open, onClose }: LoadRunDialogProps) {
  const detail = useLoadRun(runKey, open);

  let content: ReactNode;
  if (detail.isPending) {
    content = (
      <Box aria-label="Loading the load run" aria-busy>
        {Array.from({ length: 9 }, (_, row) => (
          <Skeleton key={row} height={28} />
        ))}
      </Box>
    );
  } else if (detail.isError) {
    content = <ResultsError error={detail.error} />;
  } else {
    content = (
      <Box sx={{ display: "flex", flexDirection: "column", gap: 2 }}>
        <RunFields run={detail.data.run} />
        <Typography variant="h3" component="h3">
          Statistics
        </Typography>
        <LoadStatsTable stats={detail.data.load_stats} />
      </Box>
    );
  }

  return (
    <Dialog
      open={open}
      onClose={onClose}
      maxWidth="lg"
      fullWidth
      aria-labelledby="load-run-title"
      // The dialog takes focus on open (for Escape and the focus trap); it is no control.
      slotProps={{ paper: { sx: { outline: "none" } } }}
    >
      <DialogTitle
        id="load-run-title"
        variant="h2"
        sx={{ display: "flex", alignItems: "baseline", gap: 2, pr: 1, py: 1.5 }}
      >
        <Box component="span" sx={{ overflowWrap: "anywhere" }}>
          {runKey}
        </Box>
        <Typography
          component="span"
          variant="body2"
          color="text.secondary"
          noWrap
          sx={{ flex: 1, minWidth: 0 }}
        >
          {detail.data?.run.test_run_name}
        </Typography>
        <Tooltip
          describeChild
          title="p50, p95, requests/s and error rate of each endpoint across this job's runs"
        >
          <Button
            size="small"
            startIcon={<ShowChart />}
            component={RouterLink}
            to={trendHref(runKey)}
          >
            Trend over time
          </Button>
        </Tooltip>
        <IconButton aria-label="Close" onClick={onClose}>
          <Close />
        </IconButton>
      </DialogTitle>
      <DialogContent dividers>{content}</DialogContent>
    </Dialog>
  );
}
