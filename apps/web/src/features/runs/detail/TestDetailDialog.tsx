import Close from "@mui/icons-material/Close";
import PrintOutlined from "@mui/icons-material/PrintOutlined";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import IconButton from "@mui/material/IconButton";
import Skeleton from "@mui/material/Skeleton";
import { Link as RouterLink } from "react-router";
import { useTestDetail } from "../../../api/use-test-detail";
import { AttemptList } from "./AttemptList";
import { DetailError } from "./DetailError";
import { TestDetailBody } from "./TestDetailBody";

const TITLE_ID = "test-detail-title";

/**
 * The Frontend test detail dialog of one result (/test_runs/{key}/{test_key}), with the test's
 * other attempts in the run (a rerun's) when it has any.
 */
export function TestDetailDialog({
  runKey,
  testKey,
  onClose,
  onOpenAttempt,
}: {
  runKey: string;
  testKey: string;
  onClose: () => void;
  /** Opens another attempt of the same test. */
  onOpenAttempt: (testKey: string) => void;
}) {
  const detail = useTestDetail(runKey, testKey);
  const title = detail.data
    ? `TC${detail.data.test_id} · ${detail.data.title ?? detail.data.name}`
    : testKey;
  const printPath = `/print/${encodeURIComponent(runKey)}/${encodeURIComponent(testKey)}`;
  return (
    <Dialog
      open
      onClose={onClose}
      maxWidth="lg"
      fullWidth
      scroll="paper"
      aria-labelledby={TITLE_ID}
    >
      <DialogTitle
        id={TITLE_ID}
        component="h2"
        variant="h2"
        sx={{ display: "flex", alignItems: "center", gap: 1, pr: 1 }}
      >
        <Box component="span" sx={{ flex: 1, minWidth: 0, overflowWrap: "anywhere" }}>
          {title}
        </Box>
        <Button component={RouterLink} to={printPath} startIcon={<PrintOutlined />}>
          Print view
        </Button>
        <IconButton onClick={onClose} aria-label="Close the test detail">
          <Close />
        </IconButton>
      </DialogTitle>
      <DialogContent dividers>
        {detail.isError ? (
          <DetailError error={detail.error} />
        ) : detail.data ? (
          <Box sx={{ display: "grid", gap: 2 }}>
            <AttemptList
              attempts={detail.data.attempts}
              testId={detail.data.test_id}
              shownKey={testKey}
              onOpen={onOpenAttempt}
            />
            <TestDetailBody detail={detail.data} />
          </Box>
        ) : (
          <Box aria-busy="true" aria-label="Loading test details" sx={{ display: "grid", gap: 1 }}>
            <Skeleton variant="text" width="40%" />
            <Skeleton variant="rounded" height={80} />
            <Skeleton variant="rounded" height={240} />
          </Box>
        )}
      </DialogContent>
    </Dialog>
  );
}
