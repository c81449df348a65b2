import Box from "@mui/material/Box";
import {
  TicketDetailsNotice,
  TicketDetailsProvider,
  TicketSummary,
  useTicketDetailsState,
} from "../../../components/TicketDetails";
import { TicketLink } from "../../../components/TicketText";

function TicketLines({
  tickets,
  trackerUrl,
}: {
  tickets: readonly string[];
  trackerUrl: string | undefined;
}) {
  // Without Jira (not configured) the message's own ticket links are all there is to show.
  const details = useTicketDetailsState();
  if (!details) return null;
  return (
    <Box
      component="ul"
      aria-label="Tickets"
      sx={{
        m: 0,
        p: 0,
        listStyle: "none",
        "& .ticket-note": { color: "text.secondary", ml: 0.5 },
      }}
    >
      {tickets.map((ticket) => (
        <Box
          component="li"
          key={ticket}
          data-testid="ticket-detail"
          sx={{ display: "flex", alignItems: "center", flexWrap: "wrap" }}
        >
          <TicketLink ticket={ticket} trackerUrl={trackerUrl} />
          <TicketSummary ticket={ticket} />
        </Box>
      ))}
    </Box>
  );
}

/**
 * The tickets of an opened backend failure with their Jira status chip and summary (text only),
 * as the frontend dialog shows them. The backend list's rows carry no error: a result's tickets
 * are known when it opens, so its own tickets are looked up then, in one batched call.
 */
export function BackendTickets({
  tickets,
  trackerUrl,
}: {
  tickets: readonly string[];
  trackerUrl: string | undefined;
}) {
  if (tickets.length === 0) return null;
  return (
    <TicketDetailsProvider tickets={tickets}>
      <TicketDetailsNotice />
      <TicketLines tickets={tickets} trackerUrl={trackerUrl} />
    </TicketDetailsProvider>
  );
}
