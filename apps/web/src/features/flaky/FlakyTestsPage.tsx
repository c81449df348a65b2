import type { FlakyTest } from "@assay/core";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import MenuItem from "@mui/material/MenuItem";
import Paper from "@mui/material/Paper";
import Skeleton from "@mui/material/Skeleton";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { Link as RouterLink, useParams, useSearchParams } from "react-router";
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
  const tests = useFlakyTests(search);
  if (tests.isPending) {
    return Array.from({ length: 8 }, (_, row) => (
      <TableRow key={row} aria-hidden>
        <TableCell colSpan={COLUMNS}>
          <Skeleton variant="text" />
        </TableCell>
      </TableRow>
    ));
  }
  if (tests.isError) {
    return (
      <TableRow>
        <TableCell colSpan={COLUMNS}>
          <Alert
            severity="error"
            action={
              <Button color="inherit" onClick={() => void tests.refetch()}>
                Retry
              </Button>
            }
          >
            Could not load the flaky tests: {tests.error.message}
          </Alert>
        </TableCell>
      </TableRow>
    );
  }
  if (tests.data.length === 0) {
    return (
      <TableRow>
        <TableCell colSpan={COLUMNS} sx={{ py: 4, textAlign: "center" }}>
          <Typography color="text.secondary">
            No flaky tests with these filters: no test flips between passing and failing.
          </Typography>
        </TableCell>
      </TableRow>
    );
  }
  return tests.data.map((test) => (
    <FlakyRow key={`${test.testId} ${contextLabel(test.context)}`} test={test} />
  ));
}

/**
 * Flaky Tests (/flaky/:id?): tests ranked by their weighted flip rate per job context, with
 * their evidence; a test's id in the URL opens its evidence.
 */
export function FlakyTestsPage() {
  const { id } = useParams();
  const [params, setParams] = useSearchParams();
  if (id && /^\d{1,15}$/.test(id)) return <FlakyTestPage testId={Number(id)} />;
  const set = (name: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next, { replace: true });
  };
  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 2 }}>
      <FlakyOverview />
      <Box sx={{ display: "flex", gap: 1.5, flexWrap: "wrap" }} role="search">
        <TextField
          select
          size="small"
          label="Family"
          value={params.get("family") ?? ""}
          onChange={(event) => set("family", event.target.value)}
          sx={{ minWidth: 140 }}
        >
          <MenuItem value="">All</MenuItem>
          <MenuItem value="frontend">Frontend</MenuItem>
          <MenuItem value="backend">Backend</MenuItem>
        </TextField>
        {FILTERS.map(([name, label]) => (
          <TextField
            key={name}
            size="small"
            label={label}
            defaultValue={params.get(name) ?? ""}
            onBlur={(event) => set(name, event.target.value.trim())}
            onKeyDown={(event) => {
              if (event.key === "Enter") set(name, (event.target as HTMLInputElement).value.trim());
            }}
          />
        ))}
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
