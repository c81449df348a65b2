import Skeleton from "@mui/material/Skeleton";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableContainer from "@mui/material/TableContainer";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import { ApiRequestCells, ApiRequestHeadRow } from "./ApiRequestCells";
import { useBackendResultDetail } from "./use-backend-run";
import { DetailError } from "../detail/DetailError";

/** The API requests one result made, fetched when the engineer switches to them. */
export function ResultApiRequests({ runKey, resultId }: { runKey: string; resultId: string }) {
  const detail = useBackendResultDetail(runKey, resultId, true);

  if (detail.isPending) {
    return (
      <div aria-label="Loading API requests">
        {[0, 1, 2].map((row) => (
          <Skeleton key={row} height={28} />
        ))}
      </div>
    );
  }
  if (detail.isError) {
    return <DetailError error={detail.error} />;
  }
  const requests = detail.data.apiRequests;
  if (requests.length === 0) {
    return <Typography color="text.secondary">This test made no API requests.</Typography>;
  }
  return (
    <TableContainer sx={{ maxHeight: 320, border: 1, borderColor: "divider", borderRadius: 1 }}>
      <Table stickyHeader sx={{ tableLayout: "fixed" }} aria-label="API requests of this test">
        <TableHead>
          <ApiRequestHeadRow />
        </TableHead>
        <TableBody>
          {requests.map((request) => (
            <TableRow key={request.id}>
              <ApiRequestCells request={request} />
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
