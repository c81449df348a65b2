import type { UseQueryResult } from "@tanstack/react-query";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Skeleton from "@mui/material/Skeleton";
import TableCell from "@mui/material/TableCell";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import type { ReactNode } from "react";

/**
 * A table body's rows for one query: placeholders while it loads, the error with Retry, the
 * words of an empty answer, or the rows `children` makes of the data. One shape for every
 * ranked list (Failures, Flaky Tests), so they load and fail alike.
 */
export function QueryRows<T>({
  query,
  columns,
  what,
  empty,
  isEmpty,
  children,
}: {
  query: UseQueryResult<T, Error>;
  columns: number;
  /** What failed to load, after "Could not load": "the flaky tests". */
  what: string;
  empty: string;
  isEmpty: (data: T) => boolean;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) {
    return Array.from({ length: 8 }, (_, row) => (
      <TableRow key={row} aria-hidden>
        <TableCell colSpan={columns}>
          <Skeleton variant="text" />
        </TableCell>
      </TableRow>
    ));
  }
  if (query.isError) {
    return (
      <TableRow>
        <TableCell colSpan={columns}>
          <Alert
            severity="error"
            action={
              <Button color="inherit" onClick={() => void query.refetch()}>
                Retry
              </Button>
            }
          >
            Could not load {what}: {query.error.message}
          </Alert>
        </TableCell>
      </TableRow>
    );
  }
  if (isEmpty(query.data)) {
    return (
      <TableRow>
        <TableCell colSpan={columns} sx={{ py: 4, textAlign: "center" }}>
          <Typography color="text.secondary">{empty}</Typography>
        </TableCell>
      </TableRow>
    );
  }
  return children(query.data);
}
