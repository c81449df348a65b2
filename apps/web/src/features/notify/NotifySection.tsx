import type { NotifyDelivery, NotifyRule } from "@assay/core";
import Add from "@mui/icons-material/Add";
import CheckCircle from "@mui/icons-material/CheckCircle";
import ErrorIcon from "@mui/icons-material/Error";
import HourglassEmpty from "@mui/icons-material/HourglassEmpty";
import RemoveCircleOutline from "@mui/icons-material/RemoveCircleOutline";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Paper from "@mui/material/Paper";
import Skeleton from "@mui/material/Skeleton";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { useState, type ReactElement } from "react";
import { useMe } from "../../api/use-me";
import { NotifyRuleDialog } from "./NotifyRuleDialog";
import { CHANNEL_LABEL, filtersText, STATE_LABEL, WHEN_LABEL } from "./rule-words";
import { useNotifyChanges, useNotifyRules } from "./use-notify";

const STATE_ICON: Record<NotifyDelivery["state"], ReactElement> = {
  sent: <CheckCircle fontSize="small" />,
  failed: <ErrorIcon fontSize="small" />,
  pending: <HourglassEmpty fontSize="small" />,
  skipped: <RemoveCircleOutline fontSize="small" />,
};
const STATE_COLOUR = {
  sent: "success",
  failed: "error",
  pending: "info",
  skipped: "default",
} as const;

/** The latest delivery of a rule, as an icon and a word; the others on hover. */
function LastDelivery({ deliveries }: { deliveries: NotifyDelivery[] }) {
  const [last] = deliveries;
  if (!last)
    return (
      <Typography variant="body2" color="text.secondary">
        Nothing sent yet
      </Typography>
    );
  const detail = deliveries
    .map((d) => `${d.runName}: ${STATE_LABEL[d.state]}${d.message ? ` (${d.message})` : ""}`)
    .join("\n");
  return (
    <Tooltip title={<span style={{ whiteSpace: "pre-line" }}>{detail}</span>}>
      <Stack direction="row" sx={{ gap: 1, alignItems: "center" }}>
        <Chip
          size="small"
          icon={STATE_ICON[last.state]}
          color={STATE_COLOUR[last.state]}
          label={STATE_LABEL[last.state]}
          variant="outlined"
        />
        <Typography variant="body2" noWrap sx={{ maxWidth: 260 }}>
          {last.runName}
          {last.message ? ` · ${last.message}` : ""}
        </Typography>
      </Stack>
    </Tooltip>
  );
}

/**
 * Notifications on the Setting screen: which runs are sent where and when, and how the latest
 * deliveries went. Administrators add, edit and archive rules; rules from assay.config.yaml are
 * shown read-only.
 */
export function NotifySection() {
  const { me, signedIn } = useMe();
  const admin = me?.admin ?? false;
  const rules = useNotifyRules(signedIn);
  const { save, archive } = useNotifyChanges();
  const [editing, setEditing] = useState<NotifyRule | "new" | null>(null);
  const [archiving, setArchiving] = useState<NotifyRule | null>(null);

  const close = () => {
    setEditing(null);
    save.reset();
  };
  let body: ReactElement;
  if (!signedIn)
    body = <Typography color="text.secondary">Sign in to see the notifications.</Typography>;
  else if (rules.isPending) body = <Skeleton variant="rounded" height={80} />;
  else if (rules.isError)
    body = <Alert severity="error">Could not load the notifications: {rules.error.message}</Alert>;
  else if (rules.data.rules.length === 0)
    body = (
      <Typography color="text.secondary" sx={{ py: 2, textAlign: "center" }}>
        No notifications yet:{" "}
        {admin
          ? "add one to send run results to Slack, Teams, email or a webhook."
          : "an administrator can add them."}
      </Typography>
    );
  else
    body = (
      <Table size="small" aria-label="Notifications">
        <TableHead>
          <TableRow>
            <TableCell>Name</TableCell>
            <TableCell>Sends to</TableCell>
            <TableCell>When</TableCell>
            <TableCell>Which runs</TableCell>
            <TableCell>Last delivery</TableCell>
            <TableCell>Actions</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rules.data.rules.map((rule) => (
            <TableRow key={rule.id}>
              <TableCell>
                {rule.name}
                {!rule.isActive && <Chip size="small" label="Paused" sx={{ ml: 1 }} />}
              </TableCell>
              <TableCell>
                {CHANNEL_LABEL[rule.channel]}
                <Typography variant="caption" color="text.secondary" sx={{ display: "block" }}>
                  {rule.channel === "email" ? rule.email?.to.join(", ") : rule.target}
                </Typography>
              </TableCell>
              <TableCell>{WHEN_LABEL[rule.when]}</TableCell>
              <TableCell>{filtersText(rule.filters)}</TableCell>
              <TableCell>
                <LastDelivery deliveries={rule.deliveries} />
              </TableCell>
              <TableCell>
                {rule.source === "config" ? (
                  <Typography variant="caption" color="text.secondary">
                    From assay.config.yaml
                  </Typography>
                ) : archiving?.id === rule.id ? (
                  <Stack direction="row" sx={{ gap: 1, alignItems: "center" }}>
                    <Typography variant="body2">Stop and archive?</Typography>
                    <Button
                      size="small"
                      color="error"
                      onClick={() =>
                        archive.mutate(rule.id, { onSuccess: () => setArchiving(null) })
                      }
                    >
                      Archive
                    </Button>
                    <Button size="small" onClick={() => setArchiving(null)}>
                      Keep
                    </Button>
                  </Stack>
                ) : (
                  <Stack direction="row" sx={{ gap: 1 }}>
                    <Button size="small" disabled={!admin} onClick={() => setEditing(rule)}>
                      Edit
                    </Button>
                    <Button size="small" disabled={!admin} onClick={() => setArchiving(rule)}>
                      Archive
                    </Button>
                  </Stack>
                )}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    );

  return (
    <Paper sx={{ p: 2 }}>
      <Stack direction="row" sx={{ alignItems: "center", mb: 1, gap: 2 }}>
        <Typography variant="h6" component="h2" sx={{ flexGrow: 1 }}>
          Notifications
        </Typography>
        <Tooltip title={admin ? "Add a notification" : "Only administrators manage notifications"}>
          <span>
            <Button
              variant="contained"
              startIcon={<Add />}
              disabled={!admin}
              onClick={() => setEditing("new")}
            >
              Add notification
            </Button>
          </span>
        </Tooltip>
      </Stack>
      {archive.error && (
        <Alert severity="error" sx={{ mb: 1 }}>
          {archive.error.message}
        </Alert>
      )}
      {body}
      {editing && (
        <NotifyRuleDialog
          rule={editing === "new" ? null : editing}
          saving={save.isPending}
          error={save.error?.message ?? null}
          onClose={close}
          onSave={(ruleBody) =>
            save.mutate(
              { id: editing === "new" ? null : editing.id, body: ruleBody },
              { onSuccess: close },
            )
          }
        />
      )}
    </Paper>
  );
}
