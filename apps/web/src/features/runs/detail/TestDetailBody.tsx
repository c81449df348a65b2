import { formatDuration, type FrontendResultDetail } from "@assay/core";
import HourglassEmpty from "@mui/icons-material/HourglassEmpty";
import Box from "@mui/material/Box";
import Typography from "@mui/material/Typography";
import type { ReactNode } from "react";
import { useCatalog } from "../../../api/use-catalog";
import { ErrorBlock } from "../../../components/ErrorBlock";
import { StatusLabel } from "../../../components/StatusLabel";
import { AttachmentList } from "./AttachmentList";
import { Pre } from "./Pre";
import { ScreenshotGroups, ScreenshotImage } from "./ScreenshotGroups";
import { StepList } from "../../../components/StepList";

export const NO_ERROR_SCREENSHOT = "No error screenshot found.";
/** Spec section 8's words, said only when a Before step failed: then it is the likely cause. */
export const NO_SCRIPT_BEFORE_FAILED = "Not found! Probably failed at 'Before' action";
export const NO_SCRIPT = "No script recorded";

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box component="section" aria-label={title} sx={{ minWidth: 0 }}>
      <Typography component="h3" variant="h3" sx={{ mb: 0.75 }}>
        {title}
      </Typography>
      {children}
    </Box>
  );
}

function MissingScript({ detail }: { detail: FrontendResultDetail }) {
  const beforeFailed = detail.json_before_steps.some((step) => step.passed === false);
  return (
    <Typography color={beforeFailed ? "error" : "text.secondary"}>
      {beforeFailed ? NO_SCRIPT_BEFORE_FAILED : NO_SCRIPT}
    </Typography>
  );
}

function Facts({ detail }: { detail: FrontendResultDetail }) {
  const facts: [string, string | null][] = [
    ["Duration", formatDuration(detail.duration_ms)],
    ["Site", detail.nora_site],
    ["Chrome", detail.chrome_version],
    ["Platform", detail.platform],
    ["Commit", detail.commit_hash],
    ["Branch", detail.branch],
    ["File", detail.file],
  ];
  return (
    <Box sx={{ display: "flex", flexWrap: "wrap", columnGap: 2, rowGap: 0.25, mt: 0.5 }}>
      <StatusLabel status={detail.derived_status} />
      {facts.map(([label, value]) => (
        <Box key={label} component="span" sx={{ overflowWrap: "anywhere" }}>
          <Box component="span" sx={{ color: "text.secondary" }}>
            {label}:
          </Box>{" "}
          {value ?? "–"}
        </Box>
      ))}
    </Box>
  );
}

/**
 * Everything about one frontend result: facts, failure, description, before and scenario
 * steps, the error screenshot, every screenshot with the steps before it, the other attachments
 * (text shown as text), logs and the script.
 */
export function TestDetailBody({ detail }: { detail: FrontendResultDetail }) {
  const catalog = useCatalog();
  const failed = detail.derived_status === "failed" || detail.derived_status === "unstable";
  return (
    <Box sx={{ display: "grid", gap: 2.5 }}>
      <Box>
        {detail.scenario && <Typography color="text.secondary">{detail.scenario}</Typography>}
        <Facts detail={detail} />
      </Box>
      {failed && detail.error_message && (
        <ErrorBlock
          message={detail.error_message}
          tickets={detail.tickets}
          pattern={catalog.data?.ticketPattern ?? "(?!)"}
          trackerUrl={catalog.data?.issueTrackerUrl}
        />
      )}
      {detail.derived_status === "skipped" && (
        <Box sx={{ display: "flex", gap: 0.5, alignItems: "center", color: "status.skipped" }}>
          <HourglassEmpty sx={{ fontSize: 16 }} aria-hidden />
          Pending: {detail.pending_reason || "no reason given"}
        </Box>
      )}
      <Section title="Description">
        <Typography sx={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>
          {detail.description || "No description."}
        </Typography>
      </Section>
      <Box sx={{ display: "grid", gridTemplateColumns: { md: "1fr 1fr" }, gap: 2.5 }}>
        <Box sx={{ display: "grid", gap: 2, alignContent: "start" }}>
          <Section title="Before steps">
            <StepList steps={detail.json_before_steps} label="Before steps" />
          </Section>
          <Section title="Scenario steps">
            <StepList steps={detail.json_steps} label="Scenario steps" />
          </Section>
        </Box>
        <Section title="Error screenshot">
          {detail.error_screenshot ? (
            <ScreenshotImage path={detail.error_screenshot} alt="Error screenshot" />
          ) : (
            <Typography color="text.secondary">{NO_ERROR_SCREENSHOT}</Typography>
          )}
        </Section>
      </Box>
      <Section title="Screenshots">
        <ScreenshotGroups steps={detail.json_steps} screenshots={detail.screenshots} />
      </Section>
      {detail.attachments.length > 0 && (
        <Section title="Attachments">
          <AttachmentList attachments={detail.attachments} steps={detail.json_steps} />
        </Section>
      )}
      {detail.console_errors && (
        <Section title="Console errors">
          <Pre>{detail.console_errors}</Pre>
        </Section>
      )}
      {detail.request_errors && (
        <Section title="Request errors">
          <Pre>{detail.request_errors}</Pre>
        </Section>
      )}
      <Section title="Script">
        {detail.body ? <Pre>{detail.body}</Pre> : <MissingScript detail={detail} />}
      </Section>
    </Box>
  );
}
