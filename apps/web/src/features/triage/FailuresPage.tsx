import { FAILURES_DEFAULT_DAYS, type FailureGroupSummary } from "@assay/core";
import Box from "@mui/material/Box";
import MenuItem from "@mui/material/MenuItem";
import Paper from "@mui/material/Paper";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { Link as RouterLink, useParams } from "react-router";
import { ContextFilters, useFilterParams } from "../../components/ContextFilters";
import { QueryRows } from "../../components/QueryRows";
import { FailureGroupPage } from "./FailureGroupPage";
import { LazyTrend } from "./LazyTrend";
import { daysAgo } from "./time-ago";
import { useFailureGroups } from "./use-triage";

const PERIODS = [1, 7, 14, 30, 90];
const FILTERS = [
  ["platform", "Platform"],
  ["branch", "Branch"],
  ["site", "Site"],
] as const;
const COLUMNS = 7;
const number = new Intl.NumberFormat("en-US");

/** The query string the API takes, from the page's URL (days → since). */
export function apiSearch(params: URLSearchParams, now = new Date()): string {
  const out = new URLSearchParams();
  const days = Number(params.get("days") ?? FAILURES_DEFAULT_DAYS);
  const since = new Date(now.getTime() - days * 86_400_000);
  out.set("since", since.toISOString().slice(0, 10));
  for (const name of ["family", "platform", "branch", "site"]) {
    const value = params.get(name);
    if (value) out.set(name, value);
  }
  return out.toString();
}

function GroupRow({ group }: { group: FailureGroupSummary }) {
  return (
    <TableRow hover>
      <TableCell sx={{ maxWidth: 560 }}>
        <RouterLink to={`/failures/${group.id}`} style={{ color: "inherit" }}>
          <Typography variant="body2" sx={{ fontWeight: 500, wordBreak: "break-word" }}>
            {group.message || "(no message)"}
          </Typography>
        </RouterLink>
        <Typography variant="caption" color="text.secondary">
          {group.errorType}
        </Typography>
      </TableCell>
      <TableCell align="right" sx={{ fontVariantNumeric: "tabular-nums" }}>
        {number.format(group.count)}
      </TableCell>
      <TableCell align="right" sx={{ fontVariantNumeric: "tabular-nums" }}>
        {number.format(group.tests)}
      </TableCell>
      <TableCell align="right" sx={{ fontVariantNumeric: "tabular-nums" }}>
        {number.format(group.runs)}
      </TableCell>
      <TableCell align="right" sx={{ fontVariantNumeric: "tabular-nums" }}>
        {number.format(group.toInvestigate)}
      </TableCell>
      <TableCell sx={{ width: 140 }} aria-label="Occurrences per day, last 30 days">
        <LazyTrend data={group.trend.map((point) => point.count)} height={28} width={120} />
      </TableCell>
      <TableCell title={group.firstSeen.at} sx={{ whiteSpace: "nowrap" }}>
        {daysAgo(group.firstSeen.at)}
        {group.firstSeen.runKey && (
          <Typography variant="caption" color="text.secondary" component="div" noWrap>
            {group.firstSeen.runKey}
          </Typography>
        )}
      </TableCell>
    </TableRow>
  );
}

function Rows({ search }: { search: string }) {
  return (
    <QueryRows
      query={useFailureGroups(search)}
      columns={COLUMNS}
      what="the failure groups"
      empty="No failures in this period with these filters: nothing to triage."
      isEmpty={(data) => data.groups.length === 0}
    >
      {(data) => data.groups.map((group) => <GroupRow key={group.id} group={group} />)}
    </QueryRows>
  );
}

/** The Failures screen: failure groups (causes) over a period, most occurrences first. */
export function FailuresPage() {
  const { id } = useParams();
  const [params, set] = useFilterParams();
  if (id && /^\d+$/.test(id)) return <FailureGroupPage id={Number(id)} />;
  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 2 }}>
      <Box sx={{ display: "flex", gap: 1.5, flexWrap: "wrap" }} role="search">
        <TextField
          select
          size="small"
          label="Period"
          value={params.get("days") ?? String(FAILURES_DEFAULT_DAYS)}
          onChange={(event) => set("days", event.target.value)}
          sx={{ minWidth: 140 }}
        >
          {PERIODS.map((days) => (
            <MenuItem key={days} value={String(days)}>
              Last {days} day{days === 1 ? "" : "s"}
            </MenuItem>
          ))}
        </TextField>
        <ContextFilters params={params} set={set} fields={FILTERS} />
      </Box>
      <TableContainer component={Paper} variant="outlined">
        <Table size="small" aria-label="Failure groups">
          <TableHead sx={{ "& th": { whiteSpace: "nowrap" } }}>
            <TableRow>
              <TableCell>Cause (normalised message)</TableCell>
              <TableCell align="right">Occurrences</TableCell>
              <TableCell align="right">Tests</TableCell>
              <TableCell align="right">Runs</TableCell>
              <TableCell align="right">To investigate</TableCell>
              <TableCell>Trend (30 days)</TableCell>
              <TableCell>First seen</TableCell>
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
