import type { ApiRequest } from "@assay/core";
import TableCell from "@mui/material/TableCell";
import TableRow from "@mui/material/TableRow";

const milliseconds = new Intl.NumberFormat("en-US", { maximumFractionDigits: 1 });

/**
 * The columns of spec section 2's API Requests dialog, also used for one test's requests.
 * Numbers are right-aligned like their cells.
 */
export function ApiRequestHeadRow() {
  return (
    <TableRow>
      <TableCell sx={{ width: 90 }}>Method</TableCell>
      <TableCell>URL</TableCell>
      <TableCell align="right" sx={{ width: 80 }}>
        Status
      </TableCell>
      <TableCell align="right" sx={{ width: 170 }}>
        Response Time (ms)
      </TableCell>
    </TableRow>
  );
}

/** One request. An error status is bold and red, and the number itself says what it is. */
export function ApiRequestCells({ request }: { request: ApiRequest }) {
  const failed = request.status >= 400 || request.status === 0;
  return (
    <>
      <TableCell sx={{ fontFamily: "monospace", fontWeight: 600 }}>{request.method}</TableCell>
      <TableCell
        title={request.url}
        sx={{
          fontFamily: "monospace",
          overflow: "hidden",
          textOverflow: "ellipsis",
          whiteSpace: "nowrap",
        }}
      >
        {request.url}
      </TableCell>
      <TableCell
        align="right"
        sx={failed ? { color: "status.failed", fontWeight: 600 } : undefined}
      >
        {request.status}
      </TableCell>
      <TableCell align="right">{milliseconds.format(request.responsetime)}</TableCell>
    </>
  );
}
