import { formatDuration, formatUtc, type FrontendResult } from "@assay/core";
import Box from "@mui/material/Box";
import Link from "@mui/material/Link";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import { StatusLabel } from "../../../components/StatusLabel";

/** "First try", then "Retry 1", "Retry 2": attempt 0 is the first try. */
export function attemptLabel(attempt: number): string {
  return attempt === 0 ? "First try" : `Retry ${attempt}`;
}

/**
 * Every attempt of one test in its run (a rerun adds one): the last decides the test's status,
 * the earlier ones stay here with their status, time and failure. Each opens its own detail.
 * Nothing shows for a test run once.
 */
export function AttemptList({
  attempts: given,
  testId,
  shownKey,
  onOpen,
}: {
  /** The test's attempts, from the shown attempt's detail. */
  attempts: readonly FrontendResult[];
  testId: number;
  /** The attempt the dialog shows. */
  shownKey: string;
  onOpen: (testKey: string) => void;
}) {
  const attempts = [...given].sort((a, b) => a.attempt - b.attempt);
  if (attempts.length < 2) return null;
  return (
    <Box component="section" aria-label="Attempts" sx={{ minWidth: 0 }}>
      <Typography component="h3" variant="h3" sx={{ mb: 0.75 }}>
        Attempts
      </Typography>
      <Table size="small" aria-label={`Attempts of TC${testId}`}>
        <TableHead>
          <TableRow>
            <TableCell>Attempt</TableCell>
            <TableCell>Status</TableCell>
            <TableCell>Started (UTC)</TableCell>
            <TableCell>Duration</TableCell>
            <TableCell>Failure</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {attempts.map((result) => (
            <AttemptRow
              key={result.test_run_test_id}
              result={result}
              shown={result.test_run_test_id === shownKey}
              onOpen={onOpen}
            />
          ))}
        </TableBody>
      </Table>
    </Box>
  );
}

function AttemptRow({
  result,
  shown,
  onOpen,
}: {
  result: FrontendResult;
  shown: boolean;
  onOpen: (testKey: string) => void;
}) {
  const label = `${attemptLabel(result.attempt)}${result.is_final ? " (counts)" : ""}`;
  return (
    <TableRow selected={shown} aria-current={shown ? "true" : undefined}>
      <TableCell>
        {shown ? (
          <span>{label} · shown</span>
        ) : (
          <Link component="button" type="button" onClick={() => onOpen(result.test_run_test_id)}>
            {label}
          </Link>
        )}
      </TableCell>
      <TableCell>
        <Box sx={{ display: "flex", gap: 1, alignItems: "center" }}>
          <StatusLabel status={result.derived_status} />
          {result.flaky && <span>flaky</span>}
        </Box>
      </TableCell>
      <TableCell>{result.start_time ? formatUtc(result.start_time) : "–"}</TableCell>
      <TableCell>{formatDuration(result.duration_ms)}</TableCell>
      <TableCell sx={{ maxWidth: 420, overflowWrap: "anywhere" }}>
        {result.error_message?.split("\n")[0] ?? "–"}
      </TableCell>
    </TableRow>
  );
}
