import { API_LOG_PAGE_SIZES, DEFAULT_API_LOG_PAGE_SIZE } from "@assay/core";
import Close from "@mui/icons-material/Close";
import DragIndicator from "@mui/icons-material/DragIndicator";
import Box from "@mui/material/Box";
import Dialog from "@mui/material/Dialog";
import DialogContent from "@mui/material/DialogContent";
import IconButton from "@mui/material/IconButton";
import LinearProgress from "@mui/material/LinearProgress";
import Skeleton from "@mui/material/Skeleton";
import TablePagination from "@mui/material/TablePagination";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { ApiRequestsTable } from "./ApiRequestsTable";
import { useApiLog, type ApiLogPageSize } from "./use-backend-run";
import { useDrag } from "./use-drag";
import { ResultsError } from "../view/ResultsError";

const TITLE_ID = "api-requests-title";
const number = new Intl.NumberFormat("en-US");

function isPageSize(value: number): value is ApiLogPageSize {
  return (API_LOG_PAGE_SIZES as readonly number[]).includes(value);
}

/**
 * The API Requests dialog (spec section 2): every request of a backend run, a page at a time
 * (100, 1000 or 10000 rows). It can be dragged by its title, to look at the results under it.
 */
export function ApiRequestsDialog({
  runKey,
  open,
  onClose,
}: {
  runKey: string;
  open: boolean;
  onClose(): void;
}) {
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState<ApiLogPageSize>(DEFAULT_API_LOG_PAGE_SIZE);
  const log = useApiLog(runKey, page, pageSize, open);
  const { offset, handleProps } = useDrag();

  return (
    <Dialog
      open={open}
      onClose={onClose}
      maxWidth="lg"
      fullWidth
      aria-labelledby={TITLE_ID}
      slotProps={{
        paper: {
          style: { transform: `translate(${offset.x}px, ${offset.y}px)` },
          // The dialog takes focus on open (for Escape and the focus trap); it is no control.
          sx: { outline: "none" },
        },
      }}
    >
      <Box
        {...handleProps}
        data-testid="api-requests-drag-handle"
        sx={{
          display: "flex",
          alignItems: "center",
          gap: 1,
          px: 2,
          py: 1,
          cursor: "move",
          userSelect: "none",
          touchAction: "none",
          borderBottom: 1,
          borderColor: "divider",
        }}
      >
        <Box
          tabIndex={0}
          role="button"
          aria-label="Move the dialog (arrow keys)"
          sx={{ display: "inline-flex", color: "text.secondary", borderRadius: 1 }}
        >
          <DragIndicator fontSize="small" />
        </Box>
        <Typography id={TITLE_ID} variant="h2" component="h2" noWrap sx={{ flex: 1 }}>
          API Requests · {runKey}
        </Typography>
        <IconButton
          aria-label="Close"
          onClick={onClose}
          // The title drags the dialog; a press on Close must not start a drag.
          onPointerDown={(event) => event.stopPropagation()}
        >
          <Close />
        </IconButton>
      </Box>
      <DialogContent sx={{ pt: 1.5 }}>
        {/* The bar's room is kept while idle, so the centred dialog does not jump. */}
        <Box sx={{ height: 4, mb: 0.5 }}>
          {log.isFetching && !log.isPending && <LinearProgress aria-label="Loading API requests" />}
        </Box>
        {log.isPending ? (
          <Box aria-label="Loading API requests" aria-busy>
            {Array.from({ length: 8 }, (_, row) => (
              <Skeleton key={row} height={33} />
            ))}
          </Box>
        ) : log.isError ? (
          <ResultsError error={log.error} />
        ) : log.data.total === 0 ? (
          <Typography color="text.secondary" sx={{ py: 2 }}>
            This run recorded no API requests.
          </Typography>
        ) : (
          <>
            <ApiRequestsTable requests={log.data.items} pageKey={`${page}/${pageSize}`} />
            <TablePagination
              component="div"
              count={log.data.total}
              page={page - 1}
              rowsPerPage={pageSize}
              rowsPerPageOptions={[...API_LOG_PAGE_SIZES]}
              labelDisplayedRows={({ from, to, count }) =>
                `${number.format(from)}–${number.format(to)} of ${number.format(count)}`
              }
              onPageChange={(_event, next) => setPage(next + 1)}
              onRowsPerPageChange={(event) => {
                const size = Number(event.target.value);
                if (!isPageSize(size)) return;
                setPageSize(size);
                setPage(1);
              }}
            />
          </>
        )}
      </DialogContent>
    </Dialog>
  );
}
