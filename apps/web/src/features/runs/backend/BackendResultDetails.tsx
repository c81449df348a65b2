import { DEFAULT_TICKET_PATTERN, sourceLink, type BackendResultDetail } from "@assay/core";
import OpenInNew from "@mui/icons-material/OpenInNew";
import Box from "@mui/material/Box";
import Link from "@mui/material/Link";
import ToggleButton from "@mui/material/ToggleButton";
import ToggleButtonGroup from "@mui/material/ToggleButtonGroup";
import Typography from "@mui/material/Typography";
import { useState, type ReactNode } from "react";
import { useCatalog } from "../../../api/use-catalog";
import { TicketText } from "../../../components/TicketText";
import { BackendTickets } from "./BackendTickets";
import { ConsoleLog } from "./ConsoleLog";
import { EarlierAttempts } from "./EarlierAttempts";
import { ResultApiRequests } from "./ResultApiRequests";
import { SCRIPT_MISSING } from "./messages";

type View = "script" | "api";

const codeBox = {
  m: 0,
  p: 1,
  fontFamily: "monospace",
  fontSize: 12,
  whiteSpace: "pre-wrap",
  overflowWrap: "anywhere",
  bgcolor: "grey.50",
  border: 1,
  borderColor: "divider",
  borderRadius: 1,
  maxHeight: 320,
  overflow: "auto",
} as const;

function Section({
  title,
  action,
  children,
}: {
  title: string;
  action?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Box
      component="section"
      aria-label={title}
      sx={{ display: "flex", flexDirection: "column", gap: 0.5 }}
    >
      <Box sx={{ display: "flex", alignItems: "center", gap: 1 }}>
        <Typography variant="h3">{title}</Typography>
        {action}
      </Box>
      {children}
    </Box>
  );
}

/**
 * What an expanded backend result shows (spec section 2): the error, the stack with a link to
 * the source, the console log, and a toggle between the script and the API requests.
 */
export function BackendResultDetails({
  result,
  repositoryUrl,
}: {
  result: BackendResultDetail;
  /** The catalogue's sourceRepositoryUrl; undefined while the catalogue loads. */
  repositoryUrl: string | undefined;
}) {
  const [view, setView] = useState<View>("script");
  const catalog = useCatalog();
  const error = result.error_message;
  const link =
    repositoryUrl === undefined ? null : sourceLink(repositoryUrl, result.file, error?.stack);

  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 2, px: 2, pb: 2, pt: 1 }}>
      <EarlierAttempts result={result} />
      {error && (
        <Section title="Error">
          <Typography sx={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>
            {error.name && (
              <Box component="strong" sx={{ color: "status.failed" }}>
                {error.name}
                {error.message ? ": " : ""}
              </Box>
            )}
            {error.message && (
              <TicketText
                text={error.message}
                pattern={catalog.data?.ticketPattern ?? DEFAULT_TICKET_PATTERN}
                trackerUrl={catalog.data?.issueTrackerUrl}
              />
            )}
          </Typography>
          <BackendTickets tickets={result.tickets} trackerUrl={catalog.data?.issueTrackerUrl} />
        </Section>
      )}
      {(error?.stack || link) && (
        <Section
          title="Stack"
          action={
            link && (
              <Link
                href={link}
                target="_blank"
                rel="noopener noreferrer"
                sx={{ display: "inline-flex", alignItems: "center", gap: 0.5 }}
              >
                View source
                <OpenInNew sx={{ fontSize: 14 }} aria-hidden />
              </Link>
            )
          }
        >
          {error?.stack ? (
            <Box component="pre" sx={codeBox}>
              {error.stack}
            </Box>
          ) : (
            <Typography color="text.secondary">No stack trace.</Typography>
          )}
        </Section>
      )}
      <Section title="Console log">
        <ConsoleLog log={result.consoleLog} />
      </Section>
      <Section
        title={view === "script" ? "Script" : "API requests"}
        action={
          <ToggleButtonGroup
            exclusive
            size="small"
            value={view}
            onChange={(_event, next: View | null) => next && setView(next)}
            aria-label="Show the script or the API requests"
          >
            <ToggleButton value="script" sx={{ py: 0.25 }}>
              Script
            </ToggleButton>
            <ToggleButton value="api" sx={{ py: 0.25 }}>
              API requests
            </ToggleButton>
          </ToggleButtonGroup>
        }
      >
        {view === "script" ? (
          result.body ? (
            <Box component="pre" sx={codeBox}>
              {result.body}
            </Box>
          ) : (
            <Typography color="text.secondary">{SCRIPT_MISSING}</Typography>
          )
        ) : (
          <ResultApiRequests runKey={result.test_run_key} resultId={result.test_run_test_id} />
        )}
      </Section>
    </Box>
  );
}
