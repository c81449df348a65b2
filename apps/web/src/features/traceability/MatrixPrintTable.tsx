import {
  formatUtc,
  runCounts,
  type LinkedBug,
  type TraceabilityRow,
  type TraceabilityTestRun,
} from "@assay/core";
import Box from "@mui/material/Box";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import { useTicketDetailsState } from "../../components/TicketDetails";
import { StatusIcon } from "./TestRunsCell";
import { suiteTitle } from "../../components/TestIdentity";

/** A status in words beside its icon: a printed page may be black and white. */
const statusWord = (status: TraceabilityTestRun["status"]) => status ?? "not run";

function TestLine({ test }: { test: TraceabilityTestRun }) {
  return (
    <Box component="li" sx={{ display: "flex", gap: 0.5, alignItems: "flex-start" }}>
      <StatusIcon status={test.status} />
      <span>
        <strong>TC{test.testId}</strong> {statusWord(test.status)}:{" "}
        {suiteTitle(test.suitePath, test.name)}
        {test.filePath ? ` (${test.filePath})` : ""}
        {test.link && (
          <Box component="span" sx={{ color: "text.secondary" }}>
            {" "}
            (linked by {test.link.linkedBy}, {formatUtc(test.link.linkedAt)})
          </Box>
        )}
      </span>
    </Box>
  );
}

/** A bug as text: Jira's status and summary when it answered, else the stored ones. */
function BugLine({ bug }: { bug: LinkedBug }) {
  const found = useTicketDetailsState()?.byKey?.get(bug.key.toUpperCase());
  const fields = found?.fields ?? bug.fields;
  return (
    <li>
      <strong>{bug.key}</strong> [{fields.status.name || "unknown"}] {fields.summary}
    </li>
  );
}

const list = { m: 0, p: 0, listStyle: "none", display: "grid", gap: 0.25 } as const;

/** Every row of the matrix, in the import's order (no paging: the whole matrix is filed). */
export function MatrixPrintTable({ rows }: { rows: readonly TraceabilityRow[] }) {
  return (
    <Table size="small" aria-label="Traceability matrix" sx={{ "& td": { verticalAlign: "top" } }}>
      <TableHead>
        <TableRow>
          <TableCell sx={{ width: "12%" }}>RMS</TableCell>
          <TableCell sx={{ width: "24%" }}>Summary</TableCell>
          <TableCell sx={{ width: "34%" }}>Tests (latest result)</TableCell>
          <TableCell sx={{ width: "18%" }}>Linked bugs</TableCell>
          <TableCell>Note</TableCell>
        </TableRow>
      </TableHead>
      <TableBody>
        {rows.map((row) => {
          const detail = row.rmsDetail;
          const counts = runCounts(row);
          return (
            <TableRow
              key={detail.id}
              data-print-row
              data-testid="print-row"
              sx={detail.noTestNeeded === 1 ? { bgcolor: "action.hover" } : undefined}
            >
              <TableCell>
                <strong>{detail.rms}</strong>
                <Box sx={{ color: "text.secondary" }}>
                  {[detail.epic, detail.type].filter(Boolean).join(" · ")}
                </Box>
              </TableCell>
              <TableCell>{detail.summary}</TableCell>
              <TableCell>
                {counts.total === 0 ? (
                  "Not covered"
                ) : (
                  <>
                    <Box sx={{ mb: 0.5 }}>
                      {counts.total} {counts.total === 1 ? "test" : "tests"}: {counts.passed}{" "}
                      passed, {counts.failed} failed, {counts.notRun} not run
                    </Box>
                    <Box component="ul" sx={list}>
                      {row.testRuns.map((test) => (
                        <TestLine key={test.testId} test={test} />
                      ))}
                    </Box>
                  </>
                )}
              </TableCell>
              <TableCell>
                {row.linkedBugs.length === 0 ? (
                  "N/A"
                ) : (
                  <Box component="ul" sx={list}>
                    {row.linkedBugs.map((bug) => (
                      <BugLine key={bug.key} bug={bug} />
                    ))}
                  </Box>
                )}
              </TableCell>
              <TableCell sx={{ whiteSpace: "pre-wrap" }}>
                {detail.noTestNeeded === 1 && <strong>No Automation for this RMS. </strong>}
                {detail.note}
              </TableCell>
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}
