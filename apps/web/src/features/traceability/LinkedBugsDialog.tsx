import { TicketDetailsBodySchema, type IntegrationsStatus, type LinkedBug } from "@assay/core";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import CircularProgress from "@mui/material/CircularProgress";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import { useMemo } from "react";
import { useIntegrations } from "../../api/use-integrations";
import {
  statusColor,
  TicketDetailsNotice,
  TicketDetailsProvider,
  useTicketDetailsState,
} from "../../components/TicketDetails";
import { TicketLink } from "../../components/TicketText";

/** Keys Jira's details call takes (PROJECT-NUMBER): an imported file may hold other text. */
const asksJira = (key: string) => TicketDetailsBodySchema.element.safeParse(key).success;

/**
 * A bug's summary and status: Jira's, looked up with the other bugs in one batched call when
 * Jira is configured (or the demo's), else as the requirements import or sync stored them.
 */
export function BugFields({ bug }: { bug: LinkedBug }) {
  const state = useTicketDetailsState();
  const found = state?.byKey?.get(bug.key.toUpperCase());
  const fields = found?.fields ?? bug.fields;
  const status = fields.status.name;
  return (
    <>
      <TableCell>
        {/* Text only: a summary holding HTML is shown as it is written. */}
        {fields.summary}
        {state && !state.loading && !state.problem && !found && asksJira(bug.key.toUpperCase()) && (
          <Typography component="span" variant="body2" color="text.secondary">
            {" "}
            (not found in Jira; as imported)
          </Typography>
        )}
      </TableCell>
      <TableCell>
        <Chip
          size="small"
          variant={found ? "outlined" : "filled"}
          color={found ? statusColor(status) : "default"}
          label={status || "unknown"}
        />
      </TableCell>
    </>
  );
}

/**
 * Where the summaries and statuses come from, said once above the list. Given the integrations
 * rather than reading them: a second reader mounting after a failed read would read again.
 */
function SourceLine({ jira }: { jira: IntegrationsStatus["jira"] | undefined }) {
  if (!jira) return null;
  return (
    <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
      {jira.configured
        ? `Summary and status from ${jira.kind === "demo" ? "the demo's built-in Jira" : `Jira (${jira.origin ?? ""})`}.`
        : "Summary and status as the requirements import stored them: Jira is not configured."}
    </Typography>
  );
}

function BugList({
  bugs,
  loading,
  issueTrackerUrl,
}: {
  bugs: readonly LinkedBug[];
  loading: boolean;
  issueTrackerUrl: string | undefined;
}) {
  const details = useTicketDetailsState();
  // Until GET /v1/integrations says whether Jira answers, the list would show the stored values
  // and then change under the reader: the spinner stays until the details are known.
  const integrations = useIntegrations();
  if (loading) return <CircularProgress aria-label="Loading linked bugs" />;
  if (bugs.length === 0) return <Typography>N/A</Typography>;
  if (integrations.isPending || details?.loading)
    return <CircularProgress aria-label="Loading linked bugs" />;
  return (
    <>
      <SourceLine jira={integrations.data?.jira} />
      <TicketDetailsNotice />
      <Table size="small">
        <TableBody>
          {bugs.map((bug) => (
            <TableRow key={bug.key} data-testid="linked-bug">
              <TableCell>
                <TicketLink ticket={bug.key} trackerUrl={issueTrackerUrl} />
              </TableCell>
              <BugFields bug={bug} />
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </>
  );
}

/** 'Linked Jira Bugs': every bug of the shown requirements, or 'N/A' when none. */
export function LinkedBugsDialog({
  bugs,
  loading,
  issueTrackerUrl,
  onClose,
}: {
  bugs: LinkedBug[];
  loading: boolean;
  issueTrackerUrl: string | undefined;
  onClose: () => void;
}) {
  const keys = useMemo(() => bugs.map((bug) => bug.key.toUpperCase()).filter(asksJira), [bugs]);
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md">
      <DialogTitle>Linked Jira Bugs</DialogTitle>
      <DialogContent>
        <TicketDetailsProvider tickets={keys}>
          <BugList bugs={bugs} loading={loading} issueTrackerUrl={issueTrackerUrl} />
        </TicketDetailsProvider>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}
