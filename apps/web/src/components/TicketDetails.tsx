import type { TicketDetail } from "@assay/core";
import Alert from "@mui/material/Alert";
import Chip from "@mui/material/Chip";
import { createContext, useContext, useMemo, type ReactNode } from "react";
import { useIntegrations, useTicketDetails } from "../api/use-integrations";

/**
 * Ticket details (summary and status from Jira) for every ticket a screen shows: the provider
 * looks up all the screen's distinct tickets in one call, and each ticket line reads its own.
 * Jira's text is shown as text, never as HTML.
 */

interface TicketDetailsState {
  byKey: ReadonlyMap<string, TicketDetail> | undefined;
  loading: boolean;
  /** Why there are no details: Jira not configured, or unreachable. */
  problem: string | null;
}

const TicketDetailsContext = createContext<TicketDetailsState | null>(null);

export function TicketDetailsProvider({
  tickets,
  children,
}: {
  tickets: readonly string[];
  children: ReactNode;
}) {
  const keys = useMemo(
    () => [...new Set(tickets.map((ticket) => ticket.toUpperCase()))].sort(),
    [tickets],
  );
  // Asked only when Jira is configured: without it there is nothing to show but the bare links,
  // and a refused request would be an error in every run dialog's console.
  const jira = useIntegrations().data?.jira.configured === true;
  const query = useTicketDetails(keys, jira);
  const state = useMemo<TicketDetailsState | null>(
    () =>
      jira
        ? {
            byKey: query.data,
            loading: query.isLoading,
            problem: query.isError ? query.error.message : null,
          }
        : null,
    [jira, query.data, query.isLoading, query.isError, query.error],
  );
  return <TicketDetailsContext.Provider value={state}>{children}</TicketDetailsContext.Provider>;
}

/** Whether a provider is above: without one, screens show bare ticket links as before. */
export function useTicketDetailsState(): TicketDetailsState | null {
  return useContext(TicketDetailsContext);
}

const DONE = /^(done|closed|resolved|fixed|released)$/i;
const MOVING = /(progress|review|testing|verif)/i;

export function statusColor(status: string): "success" | "warning" | "error" {
  if (DONE.test(status)) return "success";
  if (MOVING.test(status)) return "warning";
  return "error";
}

/** A ticket's status chip and summary, or what stands in for them. */
export function TicketSummary({ ticket }: { ticket: string }) {
  const state = useTicketDetailsState();
  if (!state) return null;
  if (state.loading) return <span className="ticket-note">loading details…</span>;
  if (state.problem) return null;
  const detail = state.byKey?.get(ticket.toUpperCase());
  if (!detail) return <span className="ticket-note">not found in Jira</span>;
  return (
    <>
      <Chip
        size="small"
        label={detail.fields.status.name}
        color={statusColor(detail.fields.status.name)}
        variant="outlined"
        sx={{ height: 18, fontSize: 11, mx: 0.5 }}
      />
      <span>{detail.fields.summary}</span>
    </>
  );
}

/** Once per screen, when the details could not be had: why (not configured, Jira down). */
export function TicketDetailsNotice() {
  const state = useTicketDetailsState();
  if (!state?.problem) return null;
  return (
    <Alert severity="info" sx={{ py: 0 }}>
      Ticket details unavailable: {state.problem}
    </Alert>
  );
}
