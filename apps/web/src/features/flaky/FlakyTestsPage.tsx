import type { FlakyTest } from "@assay/core";
import Box from "@mui/material/Box";
import Paper from "@mui/material/Paper";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import { Link as RouterLink, useParams } from "react-router";
import { ContextFilters, useFilterParams } from "../../components/ContextFilters";
import { QueryRows } from "../../components/QueryRows";
import { FlakyOverview } from "./FlakyOverview";
import { FlakyTestPage } from "./FlakyTestPage";
import { OutcomeStrip } from "./OutcomeStrip";
import { UnstableButton } from "./UnstableButton";
import { apiSearch, contextLabel, percent, useFlakyTests } from "./use-flaky";

const FILTERS = [
  ["platform", "Platform"],
  ["branch", "Branch"],
] as const;
const COLUMNS = 7;
const numeric = { fontVariantNumeric: "tabular-nums" } as const;

function FlakyRow({ test }: { test: FlakyTest }) {
  return (
    <TableRow hover>
      <TableCell sx={{ maxWidth: 420 }}>
        <RouterLink to={`/flaky/${test.testId}`} style={{ color: "inherit" }}>
          <Typography variant="body2" sx={{ fontWeight: 500, wordBreak: "break-word" }}>
            {test.name || `TC${test.testId}`}
          </Typography>
        </RouterLink>
        <Typography variant="caption" color="text.secondary">
          TC{test.testId} · {contextLabel(test.context)}
        </Typography>
      </TableCell>
      <TableCell align="right" sx={{ ...numeric, fontWeight: 600 }}>
        {test.score.toFixed(2)}
      </TableCell>
      <TableCell align="right" sx={numeric}>
        {percent(test.flipRate)}
      </TableCell>
      <TableCell
        align="right"
        sx={numeric}
        title={`Wilson 95% interval: ${percent(test.failureRateLow)} to ${percent(test.failureRateHigh)}`}
      >
        {percent(test.failureRate)}
        <Typography variant="caption" color="text.secondary" component="div">
          {percent(test.failureRateLow)}–{percent(test.failureRateHigh)}
        </Typography>
      </TableCell>
      <TableCell align="right" sx={numeric}>
        {test.retriesPassed}
      </TableCell>
      <TableCell>
        <OutcomeStrip outcomes={test.outcomes} />
        <Typography variant="caption" color="text.secondary">
          {test.results} results{test.lastFlipRunKey ? ` · last flip ${test.lastFlipRunKey}` : ""}
        </Typography>
      </TableCell>
      <TableCell>
        <UnstableButton testId={test.testId} name={test.name} />
      </TableCell>
    </TableRow>
  );
}

function Rows({ search }: { search: string }) {
  return (
    <QueryRows
      query={useFlakyTests(search)}
      columns={COLUMNS}
      what="the flaky tests"
      empty="No flaky tests with these filters: no test flips between passing and failing."
      isEmpty={(tests) => tests.length === 0}
    >
      {(tests) =>
        tests.map((test) => (
          <FlakyRow key={`${test.testId} ${contextLabel(test.context)}`} test={test} />
        ))
      }
    </QueryRows>
  );
}

/**
 * Flaky Tests (/flaky/:id?): tests ranked by their weighted flip rate per job context, with
 * their evidence; a test's id in the URL opens its evidence.
 */
export function FlakyTestsPage() {
  const { id } = useParams();
  const [params, set] = useFilterParams();
  if (id && /^\d{1,15}$/.test(id)) return <FlakyTestPage testId={Number(id)} />;
  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 2 }}>
      <FlakyOverview />
      <Box sx={{ display: "flex", gap: 1.5, flexWrap: "wrap" }} role="search">
        <ContextFilters params={params} set={set} fields={FILTERS} />
      </Box>
      <TableContainer component={Paper} variant="outlined">
        <Table size="small" aria-label="Flaky tests">
          <TableHead>
            <TableRow>
              <TableCell>Test · job</TableCell>
              <TableCell align="right" title="Exponentially weighted flip rate">
                Score
              </TableCell>
              <TableCell align="right">Flip rate</TableCell>
              <TableCell align="right">Failure rate (95%)</TableCell>
              <TableCell align="right">Passed on retry</TableCell>
              <TableCell>Results, oldest first</TableCell>
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            <Rows search={apiSearch(params)} />
          </TableBody>
        </Table>
      </TableContainer>
    </Box>
  );
}
