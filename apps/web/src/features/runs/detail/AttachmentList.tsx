import type { ResultAttachment, Step } from "@assay/core";
import Download from "@mui/icons-material/Download";
import Box from "@mui/material/Box";
import Link from "@mui/material/Link";
import Paper from "@mui/material/Paper";
import Skeleton from "@mui/material/Skeleton";
import Typography from "@mui/material/Typography";
import { objectUrl } from "../../../api/object-url";
import { Pre } from "./Pre";
import { useAttachmentText } from "./use-attachment-text";

/**
 * How much of a text attachment the dialog shows: a page of log is read at a glance, and a
 * 50 MB trace is not pulled into the browser to be scrolled; the rest is a download away.
 */
export const TEXT_PREVIEW_BYTES = 64 * 1024;

/** Shown as text: text/* (plain, CSV, HTML as its source) and JSON or XML of any kind. */
export function isTextType(contentType: string): boolean {
  const type = (contentType.split(";")[0] ?? "").trim().toLowerCase();
  return type.startsWith("text/") || /^application\/([\w.-]+\+)?(json|xml)$/.test(type);
}

function sizeText(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

const titleOf = (attachment: ResultAttachment) => attachment.description ?? attachment.name;

/** The start of a text attachment; when it is longer, how much is shown and of how much. */
function TextPreview({ attachment }: { attachment: ResultAttachment }) {
  const text = useAttachmentText(attachment.path, TEXT_PREVIEW_BYTES);
  if (text.isPending) return <Skeleton variant="rectangular" height={48} />;
  if (text.isError) {
    return (
      <Typography variant="body2" color="error">
        Could not read this attachment: {text.error.message}
      </Typography>
    );
  }
  const { bytes } = text.data;
  return (
    <>
      {attachment.size > bytes && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 0.5 }}>
          The first {sizeText(bytes)} of {sizeText(attachment.size)}; download the whole file for
          the rest.
        </Typography>
      )}
      <Pre label={titleOf(attachment)}>{text.data.text === "" ? "(empty)" : text.data.text}</Pre>
    </>
  );
}

/**
 * A result's attachments other than screenshots, in the order recorded: text ones shown as text
 * (escaped by React, size-limited), each with its step and a download link to the whole file.
 */
export function AttachmentList({
  attachments,
  steps,
}: {
  attachments: readonly ResultAttachment[];
  steps: readonly Step[];
}) {
  return (
    <Box sx={{ display: "grid", gap: 1.5 }}>
      {attachments.map((attachment) => {
        const step = attachment.stepIndex === null ? undefined : steps[attachment.stepIndex];
        return (
          <Paper
            key={attachment.id}
            variant="outlined"
            component="figure"
            aria-label={titleOf(attachment)}
            sx={{ m: 0, p: 1.5, display: "grid", gap: 0.75, minWidth: 0 }}
          >
            <Box
              component="figcaption"
              sx={{ display: "flex", flexWrap: "wrap", columnGap: 1.5, alignItems: "baseline" }}
            >
              <Typography variant="body2" sx={{ overflowWrap: "anywhere" }}>
                {titleOf(attachment)}
              </Typography>
              <Typography variant="caption" color="text.secondary">
                {attachment.contentType} · {sizeText(attachment.size)}
                {step && ` · after step ${attachment.stepIndex! + 1}`}
                {/* An unnamed embedding is titled after its step (ingest's cucumber.ts): the
                    step is not said twice. */}
                {step && !titleOf(attachment).startsWith(step.action) && `: ${step.action}`}
              </Typography>
              <Link
                href={objectUrl(attachment.path)}
                download={attachment.name}
                variant="body2"
                sx={{ display: "inline-flex", alignItems: "center", gap: 0.25 }}
              >
                <Download sx={{ fontSize: 16 }} aria-hidden />
                Download {attachment.name}
              </Link>
            </Box>
            {isTextType(attachment.contentType) && <TextPreview attachment={attachment} />}
          </Paper>
        );
      })}
    </Box>
  );
}
