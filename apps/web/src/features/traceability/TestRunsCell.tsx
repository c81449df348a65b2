import { percentLabel, runCounts, type TraceabilityRow } from "@assay/core";
import CancelIcon from "@mui/icons-material/Cancel";
import CheckCircleIcon from "@mui/icons-material/CheckCircle";
import ExpandLessIcon from "@mui/icons-material/ExpandLess";
import ExpandMoreIcon from "@mui/icons-material/ExpandMore";
import HourglassEmptyIcon from "@mui/icons-material/HourglassEmpty";
import LinkIcon from "@mui/icons-material/Link";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Collapse from "@mui/material/Collapse";
import Link from "@mui/material/Link";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { formatUtc, sourceLink } from "@assay/core";
import { useState } from "react";
import { TestIdentity } from "../../components/TestIdentity";

/** The status icon of a test or result: check for passed, cross for failed, else an hourglass. */
export function StatusIcon({ status }: { status: string | null }) {
  if (status === "passed") {
    return <CheckCircleIcon color="success" fontSize="small" titleAccess="passed" />;
  }
  if (status === "failed") {
    return <CancelIcon color="error" fontSize="small" titleAccess="failed" />;
  }
  return <HourglassEmptyIcon color="disabled" fontSize="small" titleAccess="not run" />;
}

const SEGMENTS = [
  { key: "passed", color: "success.main", label: "passed" },
  { key: "failed", color: "error.main", label: "failed" },
  { key: "notRun", color: "grey.400", label: "not run" },
] as const;

/** The stacked percent bar: green passed, red failed, grey not run, with the total count. */
export function RunsBar({ row }: { row: TraceabilityRow }) {
  const counts = runCounts(row);
  const summary = `${counts.passed} passed, ${counts.failed} failed, ${counts.notRun} not run`;
  return (
    <Box sx={{ display: "flex", alignItems: "center", gap: 1 }}>
      <Tooltip title={counts.total ? summary : "No test covers this RMS"}>
        <Box
          role="img"
          aria-label={counts.total ? summary : "no tests"}
          sx={{
            display: "flex",
            flex: 1,
            height: 18,
            minWidth: 120,
            borderRadius: 1,
            overflow: "hidden",
            bgcolor: "grey.200",
          }}
        >
          {SEGMENTS.map(({ key, color }) =>
            counts[key] > 0 ? (
              <Box
                key={key}
                sx={{
                  width: `${(counts[key] / counts.total) * 100}%`,
                  bgcolor: color,
                  color: "common.white",
                  fontSize: 11,
                  lineHeight: "18px",
                  textAlign: "center",
                }}
              >
                {percentLabel(counts[key], counts.total)}
              </Box>
            ) : null,
          )}
        </Box>
      </Tooltip>
      <Typography variant="body2" sx={{ minWidth: 24, textAlign: "right" }}>
        {counts.total}
      </Typography>
    </Box>
  );
}

/** The Test Runs column: the bar, and the tests (TC id, name, status) behind a toggle. */
export function TestRunsCell({
  row,
  repositoryUrl,
  onHistory,
}: {
  row: TraceabilityRow;
  repositoryUrl: string | undefined;
  onHistory: (testId: number) => void;
}) {
  const [open, setOpen] = useState(false);
  return (
    <Box>
      <RunsBar row={row} />
      {row.testRuns.length > 0 && (
        <Button
          size="small"
          onClick={() => setOpen(!open)}
          endIcon={open ? <ExpandLessIcon /> : <ExpandMoreIcon />}
          aria-expanded={open}
        >
          {open ? "Hide tests" : "Show tests"}
        </Button>
      )}
      <Collapse in={open} unmountOnExit>
        <Box component="ul" sx={{ listStyle: "none", m: 0, p: 0 }}>
          {row.testRuns.map((test) => {
            const href = repositoryUrl ? sourceLink(repositoryUrl, test.filePath, null) : null;
            return (
              <Box
                component="li"
                key={test.testId}
                sx={{ display: "flex", alignItems: "flex-start", gap: 1, py: 0.25 }}
              >
                <StatusIcon status={test.status} />
                {href ? (
                  <Link href={href} target="_blank" rel="noreferrer">
                    TC{test.testId}
                  </Link>
                ) : (
                  <Typography variant="body2">TC{test.testId}</Typography>
                )}
                <Link
                  component="button"
                  variant="body2"
                  onClick={() => onHistory(test.testId)}
                  title={test.errorMessage ?? "Show this test's history"}
                  sx={{ textAlign: "left" }}
                >
                  <TestIdentity name={test.name} suitePath={test.suitePath} file={test.filePath} />
                </Link>
                {test.link && (
                  <LinkIcon
                    fontSize="small"
                    color="action"
                    titleAccess={`Linked on the screen by ${test.link.linkedBy}, ${formatUtc(test.link.linkedAt)}`}
                  />
                )}
              </Box>
            );
          })}
        </Box>
      </Collapse>
    </Box>
  );
}
