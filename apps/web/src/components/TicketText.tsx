import { splitTickets } from "@assay/core";
import type { ReactNode } from "react";

/**
 * A ticket key as a link to the issue tracker (the catalogue's issueTrackerUrl), or as text
 * while the catalogue loads. Every screen that shows a ticket shows it with this.
 */
export function TicketLink({
  ticket,
  trackerUrl,
}: {
  ticket: string;
  trackerUrl: string | undefined;
}): ReactNode {
  if (!trackerUrl) return ticket;
  return (
    <a
      href={`${trackerUrl}${encodeURIComponent(ticket)}`}
      target="_blank"
      rel="noopener noreferrer"
    >
      {ticket}
    </a>
  );
}

/**
 * A failure message as text (never HTML), with each ticket key (core's ticket rule,
 * splitTickets) a link to the issue tracker.
 */
export function TicketText({
  text,
  pattern,
  trackerUrl,
}: {
  text: string;
  pattern: string;
  /** Base URL of ticket links; absent while the catalogue loads, then keys show as text. */
  trackerUrl: string | undefined;
}): ReactNode {
  return splitTickets(text, pattern).map((part, index) =>
    "text" in part ? (
      part.text
    ) : (
      <TicketLink key={index} ticket={part.ticket} trackerUrl={trackerUrl} />
    ),
  );
}
