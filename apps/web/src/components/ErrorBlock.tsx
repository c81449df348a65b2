import { styled } from "@mui/material/styles";
import { useState } from "react";
import { TicketSummary, useTicketDetailsState } from "./TicketDetails";
import { TicketLink, TicketText } from "./TicketText";

// Longer messages start folded to four lines, so one stack trace cannot push the list away.
const FOLD_AT_CHARS = 320;
const FOLD_AT_LINES = 4;

// Plain elements under one styled root: the block renders in every failed card of the list.
const ErrorRoot = styled("div")(({ theme }) => ({
  borderLeft: `3px solid ${theme.palette.status.failed}`,
  backgroundColor: "rgba(209, 36, 47, 0.05)",
  padding: theme.spacing(0.5, 1),
  borderRadius: 3,
  fontSize: theme.typography.body2.fontSize,
  "& a": { color: theme.palette.primary.main },
  "& .eb-message": {
    margin: 0,
    fontFamily: "monospace",
    fontSize: 12,
    whiteSpace: "pre-wrap",
    overflowWrap: "anywhere",
  },
  "& .eb-folded": {
    display: "-webkit-box",
    WebkitLineClamp: FOLD_AT_LINES,
    WebkitBoxOrient: "vertical",
    overflow: "hidden",
  },
  "& .eb-ticket": { display: "flex", alignItems: "center", flexWrap: "wrap" },
  "& .ticket-note": { color: theme.palette.text.secondary, marginLeft: theme.spacing(0.5) },
  "& .eb-toggle": {
    border: 0,
    padding: theme.spacing(0.25, 0.5),
    background: "none",
    color: theme.palette.primary.main,
    font: "inherit",
    fontWeight: 500,
    cursor: "pointer",
  },
}));

/**
 * A failure message with its ticket links, folded when long (its tickets then listed above).
 * Under a TicketDetailsProvider, each ticket is listed with its Jira status chip and summary.
 */
export function ErrorBlock({
  message,
  tickets,
  pattern,
  trackerUrl,
  cut = false,
}: {
  message: string;
  /** The message is the start of a longer one (the run view's card text): said when open. */
  cut?: boolean;
  tickets: readonly string[];
  pattern: string;
  trackerUrl: string | undefined;
}) {
  const long = message.length > FOLD_AT_CHARS || message.split("\n").length > FOLD_AT_LINES;
  const [open, setOpen] = useState(false);
  const folded = long && !open;
  const details = useTicketDetailsState();
  return (
    <ErrorRoot>
      {details &&
        tickets.map((ticket) => (
          <div key={ticket} className="eb-ticket" data-testid="ticket-detail">
            <TicketLink ticket={ticket} trackerUrl={trackerUrl} />
            <TicketSummary ticket={ticket} />
          </div>
        ))}
      {/* A folded message may hide its tickets: list them above it. */}
      {!details && long && tickets.length > 0 && (
        <div>
          Tickets:{" "}
          {tickets.map((ticket, index) => (
            <span key={ticket}>
              {index > 0 && ", "}
              <TicketLink ticket={ticket} trackerUrl={trackerUrl} />
            </span>
          ))}
        </div>
      )}
      <pre className={folded ? "eb-message eb-folded" : "eb-message"}>
        <TicketText text={message} pattern={pattern} trackerUrl={trackerUrl} />
      </pre>
      {cut && open && <div>The rest of the message is in Details.</div>}
      {long && (
        <button type="button" className="eb-toggle" onClick={() => setOpen(!open)}>
          {open ? "Show less" : "Show all"}
        </button>
      )}
    </ErrorRoot>
  );
}
