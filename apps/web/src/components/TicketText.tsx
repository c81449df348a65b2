import type { ReactNode } from "react";

/** A piece of a failure message: plain text, or a ticket key to link. */
export type TextPart = { text: string } | { ticket: string };

/**
 * Splits `text` on ticket keys (the catalogue's ticketPattern, matched case-insensitively); keys
 * come back upper-cased, as the tracker spells them. An empty match is never a ticket.
 */
export function splitTickets(text: string, pattern: string): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  for (const match of text.matchAll(new RegExp(pattern, "gi"))) {
    if (match[0] === "") continue;
    if (match.index > last) parts.push({ text: text.slice(last, match.index) });
    parts.push({ ticket: match[0].toUpperCase() });
    last = match.index + match[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last) });
  return parts;
}

/**
 * A failure message as text (never HTML), with each ticket key a link to the issue tracker.
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
    ) : trackerUrl ? (
      <a
        key={index}
        href={`${trackerUrl}${encodeURIComponent(part.ticket)}`}
        target="_blank"
        rel="noopener noreferrer"
      >
        {part.ticket}
      </a>
    ) : (
      part.ticket
    ),
  );
}
