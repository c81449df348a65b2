import { formatDuration, type BackendViewResult } from "@assay/core";
import Skeleton from "@mui/material/Skeleton";
import ExpandMore from "@mui/icons-material/ExpandMore";
import { ResultCause } from "../../triage/ResultCause";
import HourglassEmpty from "@mui/icons-material/HourglassEmpty";
import Box from "@mui/material/Box";
import ButtonBase from "@mui/material/ButtonBase";
import Typography from "@mui/material/Typography";
import { StatusLabel } from "../../../components/StatusLabel";
import { BackendResultDetails } from "./BackendResultDetails";
import { DetailError } from "../detail/DetailError";
import { useBackendResultDetail } from "./use-backend-run";

/** API tests often take less than a second, which h m s would show as "0s". */
function shortDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : formatDuration(ms);
}

/**
 * An opened result's error, stack, log and script: the run view's rows carry none of them, so
 * they are read when the row opens (GET /v1/api-test-detail, with its API requests).
 */
function OpenedResult({
  runKey,
  resultId,
  repositoryUrl,
}: {
  runKey: string;
  resultId: string;
  repositoryUrl: string | undefined;
}) {
  const detail = useBackendResultDetail(runKey, resultId, true);
  if (detail.isPending) {
    return (
      <Box aria-label="Loading the result" sx={{ px: 2, pb: 2 }}>
        <Skeleton height={28} />
        <Skeleton height={28} />
      </Box>
    );
  }
  if (detail.isError) {
    return <DetailError error={detail.error} sx={{ mx: 2, mb: 2 }} />;
  }
  return <BackendResultDetails result={detail.data} repositoryUrl={repositoryUrl} />;
}

/** One result of the backend dialog: a summary line that expands into its details. */
export function BackendResultRow({
  runKey,
  result,
  expanded,
  onToggle,
  repositoryUrl,
}: {
  runKey: string;
  result: BackendViewResult;
  expanded: boolean;
  onToggle: () => void;
  repositoryUrl: string | undefined;
}) {
  const detailsId = `backend-result-${result.id}`;
  const title = result.title ?? result.name;
  return (
    <Box
      component="article"
      aria-label={`TC${result.test_id} ${title}`}
      sx={{ borderBottom: 1, borderColor: "divider", bgcolor: "background.paper" }}
    >
      <ButtonBase
        onClick={onToggle}
        aria-expanded={expanded}
        aria-controls={detailsId}
        sx={{
          width: "100%",
          justifyContent: "flex-start",
          textAlign: "left",
          gap: 2,
          px: 2,
          py: 1,
          "&:hover": { bgcolor: "action.hover" },
          "&.Mui-focusVisible": { bgcolor: "action.focus" },
        }}
      >
        <ExpandMore
          aria-hidden
          sx={{
            fontSize: 18,
            color: "text.secondary",
            transform: expanded ? "rotate(180deg)" : "none",
            transition: "transform 150ms",
          }}
        />
        <Box sx={{ minWidth: 76 }}>
          <StatusLabel status={result.derived_status} />
        </Box>
        <Typography
          sx={{ fontVariantNumeric: "tabular-nums", color: "text.secondary", minWidth: 64 }}
        >
          TC{result.test_id}
        </Typography>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography noWrap sx={{ fontWeight: 500 }} title={title}>
            {title}
          </Typography>
          {result.scenario && (
            <Typography noWrap variant="caption" color="text.secondary" component="div">
              {result.scenario}
            </Typography>
          )}
          {result.derived_status === "skipped" && (
            <Typography
              noWrap
              variant="caption"
              component="div"
              sx={{ display: "flex", alignItems: "center", gap: 0.5, color: "status.skipped" }}
            >
              <HourglassEmpty sx={{ fontSize: 14 }} aria-hidden />
              Pending: {result.pending_reason || "no reason given"}
            </Typography>
          )}
        </Box>
        {result.attempt > 0 && (
          <Typography variant="caption" color="text.secondary">
            retry {result.attempt}
          </Typography>
        )}
        <Typography
          sx={{ fontVariantNumeric: "tabular-nums", minWidth: 64, textAlign: "right" }}
          title={`${result.duration_ms} ms`}
        >
          {shortDuration(result.duration_ms)}
        </Typography>
      </ButtonBase>
      {(result.derived_status === "failed" || result.derived_status === "unstable") && (
        <Box sx={{ px: 2, pb: 1, pl: 7 }}>
          <ResultCause runKey={runKey} resultId={result.id} />
        </Box>
      )}
      {expanded && (
        <Box id={detailsId}>
          <OpenedResult
            runKey={runKey}
            resultId={result.test_run_test_id}
            repositoryUrl={repositoryUrl}
          />
        </Box>
      )}
    </Box>
  );
}
