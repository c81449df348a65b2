import { MAX_HISTORY_LIMIT } from "@assay/core";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import type { ReactNode } from "react";
import { useNavigate, useParams } from "react-router";
import { ApiError } from "../../api/client";
import { FlakyScore } from "../flaky/FlakyScore";
import { HistoryTable } from "./HistoryTable";
import { PassFailBar } from "./PassFailBar";
import { TestIdForm } from "./TestIdForm";
import { TestRenames } from "./TestRenames";
import { useTestHistory } from "./use-test-history";
import { useRolledUpTest } from "../retention/use-retention";

const TEST_ID = /^\d{1,15}$/;

function Notice({ children }: { children: ReactNode }) {
  return (
    <Paper variant="outlined" sx={{ p: 4, textAlign: "center" }}>
      <Typography color="text.secondary">{children}</Typography>
    </Paper>
  );
}

function HistoryResults({ testId }: { testId: number }) {
  const history = useTestHistory(testId);
  const complete =
    history.data !== undefined &&
    history.data.length > 0 &&
    history.data.length < MAX_HISTORY_LIMIT;
  const rolled = useRolledUpTest(testId, complete);
  if (history.isPending) return null;
  if (history.isError) {
    if (history.error instanceof ApiError && history.error.status === 404) {
      return (
        <Alert severity="warning">
          No test TC{testId} in Assay: check the id, or upload a report that contains it.
        </Alert>
      );
    }
    return (
      <Alert
        severity="error"
        action={
          <Button color="inherit" onClick={() => void history.refetch()}>
            Retry
          </Button>
        }
      >
        Could not load the history of TC{testId}: {history.error.message}
      </Alert>
    );
  }
  const entries = history.data;
  if (entries.length === 0) {
    return (
      <Box sx={{ display: "flex", flexDirection: "column", gap: 1.5 }}>
        <Notice>TC{testId} has no recorded results yet.</Notice>
        <TestRenames testId={testId} />
      </Box>
    );
  }
  const passed = entries.filter((entry) => entry.status === "passed").length;
  // Results retention removed are counted from their daily counts, when the list is complete
  // (with the newest MAX_HISTORY_LIMIT only, older results are not counted anyway).
  const removed =
    rolled.data && complete
      ? rolled.data
      : { passed: 0, failed: 0, skipped: 0, from: null, to: null };
  const removedTotal = removed.passed + removed.failed + removed.skipped;
  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 1.5 }}>
      <Box sx={{ display: "flex", alignItems: "baseline", gap: 1 }}>
        <Typography variant="h2" component="h2">
          TC{testId}
        </Typography>
        <Typography color="text.secondary" sx={{ fontVariantNumeric: "tabular-nums" }}>
          {entries.length === MAX_HISTORY_LIMIT
            ? `the newest ${MAX_HISTORY_LIMIT.toLocaleString("en-US")} results (older ones are not counted)`
            : `${entries.length === 1 ? "1 result" : `${entries.length} results`}, newest first`}
        </Typography>
      </Box>
      <FlakyScore testId={testId} />
      <PassFailBar passed={passed + removed.passed} total={entries.length + removedTotal} />
      {removedTotal > 0 && (
        <Typography variant="caption" color="text.secondary">
          Includes {removedTotal.toLocaleString("en-US")} earlier results ({removed.from} to{" "}
          {removed.to}) that retention removed; their counts per day are kept.
        </Typography>
      )}
      <HistoryTable entries={entries} testId={testId} />
      <TestRenames testId={testId} />
    </Box>
  );
}

/**
 * Test History (/history/:id?): a test's past results, looked up by its numeric id. The id in
 * the URL is fetched on open; looking up another id puts it in the URL, so the page can be shared.
 */
export function TestHistoryPage() {
  const { id } = useParams();
  const navigate = useNavigate();
  const testId = id !== undefined && TEST_ID.test(id) ? Number(id) : undefined;
  const history = useTestHistory(testId);

  const retrieve = (value: string) => {
    if (value === id) void history.refetch();
    else void navigate(`/history/${value}`);
  };

  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 2 }}>
      {/* Keyed by the URL's id: following a link to another test starts the field afresh. */}
      <TestIdForm
        key={id ?? ""}
        initial={testId !== undefined ? String(testId) : ""}
        fetching={history.isFetching}
        onRetrieve={retrieve}
      />
      {id !== undefined && testId === undefined ? (
        <Alert severity="warning">
          “{id}” is not a test id: a test id is a number, e.g. 1234 for TC1234.
        </Alert>
      ) : testId === undefined ? (
        <Notice>Enter a test id to see its past results and pass rate.</Notice>
      ) : (
        <HistoryResults testId={testId} />
      )}
    </Box>
  );
}
