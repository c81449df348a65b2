import {
  coverageLabel,
  formatUtc,
  TicketDetailsBodySchema,
  type IntegrationsStatus,
  type SyncState,
  type TraceabilityMatrix,
} from "@assay/core";
import PrintOutlined from "@mui/icons-material/PrintOutlined";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import GlobalStyles from "@mui/material/GlobalStyles";
import Link from "@mui/material/Link";
import Typography from "@mui/material/Typography";
import { useMemo } from "react";
import { Link as RouterLink } from "react-router";
import { useIntegrations } from "../../api/use-integrations";
import { TicketDetailsProvider } from "../../components/TicketDetails";
import { MatrixPrintTable } from "./MatrixPrintTable";
import { sourceText } from "./MatrixSourceBar";
import { useTraceabilityMatrix } from "./use-traceability";

export const MATRIX_PRINT_ERROR = "An error occurred fetching the traceability matrix";

/**
 * The printable Traceability Matrix (/traceability-matrix/print): what an auditor files. Every
 * requirement (inactive ones marked, not hidden) with its tests and their latest status, its
 * bugs and note, under the time the data was read and the import or sync it came from; laid out
 * for the browser's Print to PDF.
 */
export function TraceabilityPrintPage() {
  const matrix = useTraceabilityMatrix();
  let content;
  if (matrix.isPending) {
    content = <CircularProgress aria-label="Loading the traceability matrix" />;
  } else if (matrix.isError) {
    content = (
      <Alert severity="error">
        {MATRIX_PRINT_ERROR}: {matrix.error.message}
      </Alert>
    );
  } else {
    content = <MatrixReport matrix={matrix.data} readAt={matrix.dataUpdatedAt} />;
  }
  return (
    <>
      <MatrixPrintStyles />
      {content}
    </>
  );
}

function syncText(sync: SyncState): string | null {
  if (sync.state === "never") return null;
  if (sync.state === "failed") {
    const last = sync.lastSuccessAt ? formatUtc(sync.lastSuccessAt) : "never";
    return `Last Jira sync failed ${formatUtc(sync.finishedAt)}: ${sync.error ?? "no reason given"}. The matrix keeps the requirements of the last good sync or import (last successful sync: ${last}).`;
  }
  if (sync.state === "succeeded") return `Last Jira sync succeeded ${formatUtc(sync.finishedAt)}.`;
  return `A Jira sync is ${sync.state}: this report shows the data from before it.`;
}

/** Where the bugs' summaries and statuses come from, as the 'Linked Jira Bugs' dialog says. */
function bugSourceText(jira: IntegrationsStatus["jira"]): string {
  if (!jira.configured)
    return "Linked bugs: summary and status as the requirements import stored them (Jira is not configured).";
  const where = jira.kind === "demo" ? "the demo's built-in Jira" : `Jira (${jira.origin ?? ""})`;
  return `Linked bugs: summary and status from ${where} when this report was opened.`;
}

function MatrixReport({ matrix, readAt }: { matrix: TraceabilityMatrix; readAt: number }) {
  const integrations = useIntegrations().data;
  const active = matrix.rows.filter((row) => row.rmsDetail.noTestNeeded === 0);
  const bugKeys = useMemo(
    () =>
      matrix.rows
        .flatMap((row) => row.linkedBugs.map((bug) => bug.key.toUpperCase()))
        .filter((key) => TicketDetailsBodySchema.element.safeParse(key).success),
    [matrix.rows],
  );
  const facts = [
    `Data read from the server ${formatUtc(new Date(readAt).toISOString())}`,
    sourceText(matrix.source),
    integrations ? syncText(integrations.sync) : null,
    integrations ? bugSourceText(integrations.jira) : null,
  ].filter((fact): fact is string => Boolean(fact));
  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 2 }}>
      <Box sx={{ display: "flex", alignItems: "flex-start", gap: 2 }}>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography variant="h2" component="h2">
            NextGen UI Automation Coverage
          </Typography>
          {facts.map((fact) => (
            <Typography key={fact} color="text.secondary" data-testid="report-fact">
              {fact}
            </Typography>
          ))}
        </Box>
        <Box sx={{ display: "flex", gap: 1, displayPrint: "none" }}>
          <Link component={RouterLink} to="/traceability-matrix" sx={{ alignSelf: "center" }}>
            Back to the matrix
          </Link>
          <Button variant="outlined" startIcon={<PrintOutlined />} onClick={() => window.print()}>
            Print
          </Button>
        </Box>
      </Box>
      <Box
        sx={{ display: "flex", gap: 3, flexWrap: "wrap", fontWeight: 500 }}
        data-testid="report-totals"
      >
        <Typography>Total RMS: {matrix.rows.length}</Typography>
        <Typography>Active RMS: {active.length}</Typography>
        <Typography>Coverage (active RMS): {coverageLabel(active)}</Typography>
        <Typography>Coverage (all RMS): {coverageLabel(matrix.rows)}</Typography>
      </Box>
      {matrix.rows.length === 0 ? (
        <Typography role="status">No requirements imported yet.</Typography>
      ) : (
        <TicketDetailsProvider tickets={bugKeys}>
          <MatrixPrintTable rows={matrix.rows} />
        </TicketDetailsProvider>
      )}
    </Box>
  );
}

/** Landscape paper, no screen-only controls, a row never split across pages, headers repeated. */
function MatrixPrintStyles() {
  return (
    <GlobalStyles
      styles={{
        "@media print": {
          // Inside @media print, where it applies anyway: jsdom's cascade chokes on a top-level @page.
          "@page": { size: "A4 landscape", margin: "10mm" },
          body: { backgroundColor: "#fff" },
          main: { padding: "0 !important" },
          "[data-print-row]": { breakInside: "avoid", pageBreakInside: "avoid" },
          thead: { display: "table-header-group" },
        },
      }}
    />
  );
}
