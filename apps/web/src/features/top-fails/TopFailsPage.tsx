import { DEFAULT_TABLE_PAGE_SIZE, TABLE_PAGE_SIZES } from "@assay/core";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Link from "@mui/material/Link";
import Paper from "@mui/material/Paper";
import Skeleton from "@mui/material/Skeleton";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TablePagination from "@mui/material/TablePagination";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import { useState, type ReactNode } from "react";
import { Link as RouterLink } from "react-router";
import { TestIdentity } from "../../components/TestIdentity";
import { useTopFails } from "./use-top-fails";

type TopFails = ReturnType<typeof useTopFails>;

const COLUMNS = 3;

function MessageRow({ children }: { children: ReactNode }) {
  return (
    <TableRow>
      <TableCell colSpan={COLUMNS} sx={{ py: 4, textAlign: "center", borderBottom: 0 }}>
        {children}
      </TableCell>
    </TableRow>
  );
}

function SkeletonRows() {
  return Array.from({ length: 8 }, (_, row) => (
    <TableRow key={row} aria-hidden>
      {Array.from({ length: COLUMNS }, (_, column) => (
        <TableCell key={column}>
          <Skeleton variant="text" />
        </TableCell>
      ))}
    </TableRow>
  ));
}

function Rows({ fails, page, size }: { fails: TopFails; page: number; size: number }) {
  if (fails.isPending) return <SkeletonRows />;
  if (fails.isError) {
    return (
      <MessageRow>
        <Alert
          severity="error"
          sx={{ display: "inline-flex", textAlign: "left" }}
          action={
            <Button color="inherit" onClick={() => void fails.refetch()}>
              Retry
            </Button>
          }
        >
          Could not load the top failed tests: {fails.error.message}
        </Alert>
      </MessageRow>
    );
  }
  if (fails.data.length === 0) {
    return (
      <MessageRow>
        <Typography color="text.secondary">
          No test failed in the last 2 months: nothing to fix here.
        </Typography>
      </MessageRow>
    );
  }
  return fails.data.slice(page * size, (page + 1) * size).map((row) => (
    <TableRow key={row.id} hover>
      <TableCell>
        <Link
          component={RouterLink}
          to={`/history/${row.id}`}
          sx={{ fontWeight: 500, whiteSpace: "nowrap" }}
        >
          TC{row.id}
        </Link>
      </TableCell>
      <TableCell sx={{ wordBreak: "break-word" }}>
        <TestIdentity name={row.title} suitePath={row.suite_path} file={row.file} />
      </TableCell>
      <TableCell align="right">{row.fail_count}</TableCell>
    </TableRow>
  ));
}

/**
 * Top Failed Tests (/top_fails; the header says "in the last 2 months"): the tests that failed
 * most, most failures first, each linked to its history, 15 a page (spec section 9).
 */
export function TopFailsPage() {
  const fails = useTopFails();
  const [page, setPage] = useState(0);
  const [size, setSize] = useState<number>(DEFAULT_TABLE_PAGE_SIZE);
  const count = fails.data?.length ?? 0;
  return (
    <TableContainer component={Paper} variant="outlined">
      <Table aria-label="Top failed tests">
        <TableHead>
          <TableRow>
            <TableCell sx={{ width: 140 }}>Test ID</TableCell>
            <TableCell>Title</TableCell>
            <TableCell align="right" sx={{ width: 120 }}>
              Fail Count
            </TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          <Rows fails={fails} page={page} size={size} />
        </TableBody>
      </Table>
      {count > 0 && (
        <TablePagination
          component="div"
          count={count}
          page={Math.min(page, Math.max(0, Math.ceil(count / size) - 1))}
          rowsPerPage={size}
          rowsPerPageOptions={[...TABLE_PAGE_SIZES]}
          onPageChange={(_event, next) => setPage(next)}
          onRowsPerPageChange={(event) => {
            setSize(Number(event.target.value));
            setPage(0);
          }}
        />
      )}
    </TableContainer>
  );
}
