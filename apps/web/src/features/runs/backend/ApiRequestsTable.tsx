import type { ApiRequest } from "@assay/core";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import { useVirtualizer } from "@tanstack/react-virtual";
import { useEffect, useRef } from "react";
import { ApiRequestCells, ApiRequestHeadRow } from "./ApiRequestCells";

/** Height of a dense table row; rows are one line (long URLs are cut with an ellipsis). */
export const API_ROW_HEIGHT = 33;

/**
 * The API requests of one page, virtualized: at 10,000 rows only the rows in view (and a few
 * around them) are in the DOM. Spacer rows above and below keep the table's own layout and the
 * scrollbar true to the whole page.
 */
export function ApiRequestsTable({
  requests,
  pageKey,
}: {
  requests: readonly ApiRequest[];
  /** Changes when another page is shown, to start it at its top. */
  pageKey: string;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: requests.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => API_ROW_HEIGHT,
    overscan: 10,
  });

  useEffect(() => {
    virtualizer.scrollToOffset(0);
  }, [pageKey, virtualizer]);

  const items = virtualizer.getVirtualItems();
  const before = items[0]?.start ?? 0;
  const after = virtualizer.getTotalSize() - (items.at(-1)?.end ?? 0);

  return (
    <TableContainer
      ref={scrollRef}
      data-testid="api-requests-scroll"
      sx={{ height: "min(60vh, 560px)", border: 1, borderColor: "divider", borderRadius: 1 }}
    >
      <Table
        stickyHeader
        aria-label="API requests"
        aria-rowcount={requests.length + 1}
        sx={{ tableLayout: "fixed" }}
      >
        <TableHead>
          <ApiRequestHeadRow />
        </TableHead>
        <TableBody>
          {before > 0 && (
            <TableRow aria-hidden style={{ height: before }}>
              <TableCell colSpan={4} sx={{ p: 0, border: 0 }} />
            </TableRow>
          )}
          {items.map((item) => {
            const request = requests[item.index];
            if (!request) return null;
            return (
              <TableRow
                key={request.id}
                aria-rowindex={item.index + 2}
                style={{ height: API_ROW_HEIGHT }}
              >
                <ApiRequestCells request={request} />
              </TableRow>
            );
          })}
          {after > 0 && (
            <TableRow aria-hidden style={{ height: after }}>
              <TableCell colSpan={4} sx={{ p: 0, border: 0 }} />
            </TableRow>
          )}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
