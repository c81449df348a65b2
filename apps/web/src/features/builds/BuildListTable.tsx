import { RUN_PAGE_SIZES } from "@assay/core";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
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
import type { BuildPageSize } from "../../components/builds-url";

export interface BuildColumn<T> {
  id: string;
  label: string;
  numeric?: boolean;
  render: (build: T) => ReactNode;
}

export const BUILD_LIST_ERROR = "Error retrieving the build list. Please try again and refresh.";
export const NO_BUILDS = "No builds yet: start one with New Build.";

interface Page<T> {
  items: T[];
  total: number;
}

/**
 * A tab's builds, newest first, a page at a time: skeleton rows while the first page loads, a
 * plain message when there are none, and an error that says to refresh when the list fails.
 */
export function BuildListTable<T extends { id: number }>({
  label,
  columns,
  data,
  isPending,
  isError,
  page,
  size,
  onPage,
  onSize,
}: {
  label: string;
  columns: readonly BuildColumn<T>[];
  data: Page<T> | undefined;
  isPending: boolean;
  isError: boolean;
  page: number;
  size: BuildPageSize;
  onPage: (page: number) => void;
  onSize: (size: BuildPageSize) => void;
}) {
  const span = columns.length;
  let body: ReactNode;
  if (isError && !data) {
    body = (
      <TableRow>
        <TableCell colSpan={span} sx={{ py: 4, borderBottom: 0 }}>
          <Alert severity="error" sx={{ justifyContent: "center" }}>
            {BUILD_LIST_ERROR}
          </Alert>
        </TableCell>
      </TableRow>
    );
  } else if (isPending) {
    body = Array.from({ length: 5 }, (_, row) => (
      <TableRow key={row} aria-hidden>
        {columns.map((column) => (
          <TableCell key={column.id}>
            <Skeleton variant="text" />
          </TableCell>
        ))}
      </TableRow>
    ));
  } else if (!data || data.items.length === 0) {
    body = (
      <TableRow>
        <TableCell colSpan={span} sx={{ py: 4, textAlign: "center", borderBottom: 0 }}>
          <Typography color="text.secondary">{NO_BUILDS}</Typography>
        </TableCell>
      </TableRow>
    );
  } else {
    body = data.items.map((build) => (
      <TableRow key={build.id} hover>
        {columns.map((column) => (
          <TableCell
            key={column.id}
            align={column.numeric ? "right" : "left"}
            sx={{
              whiteSpace: "nowrap",
              fontVariantNumeric: column.numeric ? "tabular-nums" : undefined,
            }}
          >
            {column.render(build)}
          </TableCell>
        ))}
      </TableRow>
    ));
  }
  const total = data?.total ?? 0;
  return (
    <Box>
      {isError && data && (
        <Alert severity="error" sx={{ m: 1 }}>
          {BUILD_LIST_ERROR}
        </Alert>
      )}
      <TableContainer>
        <Table size="small" aria-label={label} sx={{ "& td, & th": { px: 1 } }}>
          <TableHead>
            <TableRow>
              {columns.map((column) => (
                <TableCell key={column.id} align={column.numeric ? "right" : "left"}>
                  {column.label}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>{body}</TableBody>
        </Table>
      </TableContainer>
      {total > 0 && (
        <TablePagination
          component="div"
          count={total}
          page={Math.min(page - 1, Math.max(0, Math.ceil(total / size) - 1))}
          rowsPerPage={size}
          rowsPerPageOptions={[...RUN_PAGE_SIZES]}
          onPageChange={(_event, next) => onPage(next + 1)}
          onRowsPerPageChange={(event) =>
            onSize(
              RUN_PAGE_SIZES.find((s) => String(s) === event.target.value) ?? RUN_PAGE_SIZES[0],
            )
          }
        />
      )}
    </Box>
  );
}
