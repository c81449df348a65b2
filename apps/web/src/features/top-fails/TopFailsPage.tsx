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
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import type { ReactNode } from "react";
import { Link as RouterLink } from "react-router";
import { useTopFails } from "./use-top-fails";

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

function Rows() {
  const fails = useTopFails();
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
  return fails.data.map((row) => (
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
      <TableCell sx={{ wordBreak: "break-word" }}>{row.title}</TableCell>
      <TableCell align="right">{row.fail_count}</TableCell>
    </TableRow>
  ));
}

/**
 * Top Failed Tests (/top_fails; the header says "in the last 2 months"): the tests that failed
 * most, most failures first, each linked to its history.
 */
export function TopFailsPage() {
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
          <Rows />
        </TableBody>
      </Table>
    </TableContainer>
  );
}
