import { RUN_PAGE_SIZES } from "@assay/core";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Checkbox from "@mui/material/Checkbox";
import Skeleton from "@mui/material/Skeleton";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TablePagination from "@mui/material/TablePagination";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import type { ReactNode } from "react";
import { useNavigate } from "react-router";
import type { RunPageSize } from "./report-url";
import type { RunPage } from "./use-runs";

export interface RunColumn<T> {
  id: string;
  label: string;
  /** Right-aligned with tabular figures. */
  numeric?: boolean;
  render: (run: T) => ReactNode;
}

/** Half the usual gap between columns (a table's first column keeps its margin): see below. */
const COMPACT_CELLS = {
  "& .MuiTableCell-root:not(.MuiTableCell-paddingCheckbox)": { px: 1 },
  "& .MuiTableCell-root:first-of-type:not(.MuiTableCell-paddingCheckbox)": { pl: 2 },
} as const;

export const RUN_LIST_ERROR = "Error retrieving run list. Please try again and refresh.";

interface RunListTableProps<T> {
  /** Accessible name of the table, e.g. "Frontend runs". */
  label: string;
  columns: readonly RunColumn<T>[];
  data: RunPage<T> | undefined;
  isPending: boolean;
  isError: boolean;
  /** The rows shown belong to another page while the asked-for one loads. */
  isStale: boolean;
  rowKey: (run: T) => string;
  /** Where a row leads (the run's dialog); a click anywhere on the row follows it. */
  rowHref: (run: T) => string;
  /** The pointer or the focus reached a row: a chance to start loading what it opens. */
  onRowIntent?: (run: T) => void;
  page: number;
  size: RunPageSize;
  /** Filters narrow the list: an empty answer says so, with a way back to every run. */
  filtered?: boolean;
  onClearFilters?: () => void;
  onPage: (page: number) => void;
  onSize: (size: RunPageSize) => void;
  /** Rows can be ticked (two runs to compare): a check box first in each row. */
  picks?: { isPicked: (key: string) => boolean; toggle: (run: T) => void };
}

/** The pager's zero-based page, kept in range (a shared link may name a page that is gone). */
function pageIndex(page: number, size: number, total: number): number {
  const last = Math.max(0, Math.ceil(total / size) - 1);
  return Math.min(page - 1, last);
}

function SkeletonRows({ columns, rows }: { columns: number; rows: number }) {
  return Array.from({ length: rows }, (_, row) => (
    <TableRow key={row} aria-hidden>
      {Array.from({ length: columns }, (_, column) => (
        <TableCell key={column}>
          <Skeleton variant="text" />
        </TableCell>
      ))}
    </TableRow>
  ));
}

function MessageRow({ columns, children }: { columns: number; children: ReactNode }) {
  return (
    <TableRow>
      <TableCell colSpan={columns} sx={{ py: 4, textAlign: "center", borderBottom: 0 }}>
        {children}
      </TableCell>
    </TableRow>
  );
}

/**
 * The run table of the three tabs: a page of runs, newest first, 15 rows by default (spec
 * section 9), with skeleton rows while loading and the spec's message when the list fails.
 */
export function RunListTable<T>(props: RunListTableProps<T>) {
  const { columns, data, page, size } = props;
  const navigate = useNavigate();
  const items = data?.items ?? [];
  const { picks } = props;
  const span = columns.length + (picks ? 1 : 0);

  let body: ReactNode;
  if (props.isError && !data) {
    body = (
      <MessageRow columns={span}>
        <Alert severity="error" sx={{ justifyContent: "center" }}>
          {RUN_LIST_ERROR}
        </Alert>
      </MessageRow>
    );
  } else if (props.isPending) {
    body = <SkeletonRows columns={span} rows={Math.min(size, 15)} />;
  } else if (data?.total === 0 && props.filtered) {
    body = (
      <MessageRow columns={span}>
        <Typography color="text.secondary" sx={{ mb: 1 }}>
          No runs match these filters.
        </Typography>
        <Button variant="outlined" onClick={props.onClearFilters}>
          Clear filters
        </Button>
      </MessageRow>
    );
  } else if (data?.total === 0) {
    body = (
      <MessageRow columns={span}>
        <Typography color="text.secondary">
          No runs yet: upload a report with <code>npx assay upload</code>
        </Typography>
      </MessageRow>
    );
  } else if (items.length === 0) {
    body = (
      <MessageRow columns={span}>
        <Typography color="text.secondary" sx={{ mb: 1 }}>
          This page is past the last run.
        </Typography>
        <Button variant="outlined" onClick={() => props.onPage(1)}>
          Go to the first page
        </Button>
      </MessageRow>
    );
  } else {
    body = items.map((run) => (
      <TableRow
        key={props.rowKey(run)}
        hover
        onClick={(event) => {
          // Links inside the row (the run's name, a report) do their own navigation; the check
          // box ticks the row.
          if ((event.target as HTMLElement).closest("a, [data-pick]")) return;
          void navigate(props.rowHref(run));
        }}
        onMouseEnter={() => props.onRowIntent?.(run)}
        onFocus={() => props.onRowIntent?.(run)}
        sx={{ cursor: "pointer" }}
      >
        {picks && (
          <TableCell padding="checkbox" data-pick>
            <Checkbox
              size="small"
              checked={picks.isPicked(props.rowKey(run))}
              onChange={() => picks.toggle(run)}
              slotProps={{ input: { "aria-label": `Pick ${props.rowKey(run)} to compare` } }}
            />
          </TableCell>
        )}
        {columns.map((column) => (
          <TableCell
            key={column.id}
            align={column.numeric ? "right" : "left"}
            // Rows are one line (two where a column shows a caption): figures do not wrap, long
            // texts (hosts, file paths, e-mails) are cut by their columns (run-columns.tsx), and
            // the gaps are compact, so that the widest table (Load) fits a 1440-wide screen.
            sx={column.numeric ? { whiteSpace: "nowrap" } : { overflowWrap: "anywhere" }}
          >
            {column.render(run)}
          </TableCell>
        ))}
      </TableRow>
    ));
  }

  return (
    <Box sx={{ opacity: props.isStale ? 0.6 : 1, transition: "opacity 120ms" }}>
      {props.isError && data && (
        <Alert severity="error" sx={{ mb: 1 }}>
          {RUN_LIST_ERROR}
        </Alert>
      )}
      <TableContainer>
        <Table
          aria-label={props.label}
          aria-busy={props.isPending || props.isStale}
          sx={COMPACT_CELLS}
        >
          <TableHead>
            <TableRow>
              {picks && <TableCell padding="checkbox" aria-label="Pick to compare" />}
              {columns.map((column) => (
                <TableCell
                  key={column.id}
                  align={column.numeric ? "right" : "left"}
                  sx={{ fontWeight: 600, whiteSpace: "nowrap" }}
                >
                  {column.label}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>{body}</TableBody>
        </Table>
      </TableContainer>
      {data && (
        <TablePagination
          component="div"
          count={data?.total ?? 0}
          page={pageIndex(page, size, data?.total ?? 0)}
          rowsPerPage={size}
          rowsPerPageOptions={[...RUN_PAGE_SIZES]}
          // Past RUN_COUNT_CAP the server stops counting: "of 10,000+".
          labelDisplayedRows={({ from, to }) =>
            `${from}–${to} of ${(data?.total ?? 0).toLocaleString("en-US")}${data?.total_exact === false ? "+" : ""}`
          }
          onPageChange={(_event, next) => props.onPage(next + 1)}
          onRowsPerPageChange={(event) => props.onSize(Number(event.target.value) as RunPageSize)}
        />
      )}
    </Box>
  );
}
