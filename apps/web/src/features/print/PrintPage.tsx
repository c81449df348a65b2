import {
  formatUtc,
  groupScreenshotsWithSteps,
  type FrontendResultDetail,
  type IndexedStep,
  type Screenshot,
  type Step,
} from "@assay/core";
import PrintOutlined from "@mui/icons-material/PrintOutlined";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Typography from "@mui/material/Typography";
import { useParams } from "react-router";
import { PrintStyles } from "./PrintStyles";
import { StepList } from "../../components/StepList";
import { objectUrl } from "../../api/object-url";
import { useTestDetail } from "../../api/use-test-detail";

/** Spec section 8: the print view's messages. */
export const PRINT_ERROR = "An error occurred fetching results";
export const PRINT_NOTHING = "Nothing Found!";

/**
 * The print view (/print/:key/:test_key, spec section 2): a test's screenshots, each with its
 * description and UTC timestamp, after the steps that led to it; laid out to print cleanly.
 */
export function PrintPage() {
  const { key, test_key: testKey } = useParams();
  const detail = useTestDetail(key, testKey);

  let content;
  if (!key || !testKey) {
    content = <Typography role="status">{PRINT_NOTHING}</Typography>;
  } else if (detail.isPending) {
    content = <CircularProgress aria-label="Loading the test detail" />;
  } else if (detail.isError) {
    content = <Alert severity="error">{PRINT_ERROR}</Alert>;
  } else if (detail.data.screenshots.length === 0) {
    content = <Typography role="status">{PRINT_NOTHING}</Typography>;
  } else {
    content = <PrintableDetail detail={detail.data} />;
  }
  return (
    <>
      <PrintStyles />
      {content}
    </>
  );
}

function PrintableDetail({ detail }: { detail: FrontendResultDetail }) {
  const { groups, remaining } = groupScreenshotsWithSteps(detail.json_steps, detail.screenshots);
  const title = detail.title ?? detail.name;
  const facts = [
    `Run ${detail.test_run_key}`,
    detail.scenario && `Scenario ${detail.scenario}`,
    detail.nora_site && `Site ${detail.nora_site}`,
    detail.start_time && `Started ${formatUtc(detail.start_time)}`,
  ].filter(Boolean);
  return (
    <Box sx={{ maxWidth: 960, display: "flex", flexDirection: "column", gap: 3 }}>
      <Box sx={{ display: "flex", alignItems: "flex-start", gap: 2 }}>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography variant="h2" component="h2" sx={{ overflowWrap: "anywhere" }}>
            TC{detail.test_id} · {title}
          </Typography>
          <Typography color="text.secondary">{facts.join(" · ")}</Typography>
          <Typography sx={{ color: `status.${detail.derived_status}`, fontWeight: 600 }}>
            {detail.derived_status[0]?.toUpperCase()}
            {detail.derived_status.slice(1)}
          </Typography>
        </Box>
        <Button
          variant="outlined"
          startIcon={<PrintOutlined />}
          onClick={() => window.print()}
          sx={{ displayPrint: "none" }}
        >
          Print
        </Button>
      </Box>
      {groups.map((group, index) => (
        <Box
          component="section"
          key={group.screenshot.id}
          aria-label={`Screenshot ${index + 1}`}
          data-print-group
        >
          {group.steps.length > 0 && <PrintedSteps steps={group.steps} />}
          <ScreenshotFigure screenshot={group.screenshot} number={index + 1} />
        </Box>
      ))}
      {remaining.length > 0 && (
        <Box component="section" aria-label="Steps after the last screenshot">
          <Typography variant="h3" component="h3" data-print-heading sx={{ mb: 0.5 }}>
            Steps after the last screenshot
          </Typography>
          <PrintedSteps steps={remaining} />
        </Box>
      )}
    </Box>
  );
}

/** Consecutive steps of the scenario on paper, numbered as in the scenario. */
function PrintedSteps({ steps }: { steps: readonly IndexedStep<Step>[] }) {
  return (
    <StepList printed steps={steps.map((item) => item.step)} start={(steps[0]?.index ?? 0) + 1} />
  );
}

function ScreenshotFigure({ screenshot, number }: { screenshot: Screenshot; number: number }) {
  const caption = screenshot.description ?? `Screenshot ${number}`;
  return (
    <Box
      component="figure"
      data-print-figure
      sx={{
        m: 0,
        mt: 1,
        p: 1,
        border: 1,
        borderColor: "divider",
        borderRadius: 1,
        bgcolor: "background.paper",
      }}
    >
      <Box
        component="img"
        src={objectUrl(screenshot.screenshotpath)}
        alt={caption}
        sx={{ display: "block", maxWidth: "100%", height: "auto" }}
      />
      <Box component="figcaption" sx={{ display: "flex", gap: 2, pt: 1, alignItems: "baseline" }}>
        <Typography sx={{ flex: 1, fontWeight: 500, overflowWrap: "anywhere" }}>
          {caption}
        </Typography>
        <Typography
          variant="caption"
          color="text.secondary"
          sx={{ fontVariantNumeric: "tabular-nums" }}
        >
          {formatUtc(screenshot.timestamp)}
        </Typography>
      </Box>
    </Box>
  );
}
