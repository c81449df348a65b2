import { formatUtc, type Setting } from "@assay/core";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import Link from "@mui/material/Link";
import Stack from "@mui/material/Stack";
import TableCell from "@mui/material/TableCell";
import TableRow from "@mui/material/TableRow";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { Link as RouterLink } from "react-router";
import { SIGN_IN_HINT } from "../../api/use-signed-in";
import { BUILD_TABS } from "../../components/builds-url";
import { humanize } from "../../components/status-words";

const OUTCOME_COLOR = {
  launched: "success",
  failed: "error",
  missed: "warning",
  unavailable: "default",
} as const;

/** The Builds screen with the build's log open, on its list's tab (and region). */
function buildHref(setting: Setting, buildId: string): string {
  const family = setting.template?.family ?? "frontend";
  const search = new URLSearchParams({ tab: String(BUILD_TABS.indexOf(family)), log: buildId });
  if (family === "frontend" && setting.template?.region === "CHINA") search.set("region", "CHINA");
  return `/builds?${search.toString()}`;
}

const NOTIFY_LABEL = {
  pending: "sending",
  delivered: "delivered",
  failed: "not delivered",
} as const;

function LastBuild({ setting }: { setting: Setting }) {
  const slot = setting.recentSlots[0];
  if (!slot)
    return (
      <Typography variant="body2" color="text.secondary">
        Not run yet
      </Typography>
    );
  const missed = setting.recentSlots.filter((s) => s.outcome === "missed").length;
  return (
    <Stack sx={{ gap: 0.5, alignItems: "flex-start" }}>
      <Chip
        size="small"
        label={slot.outcome ?? "launching"}
        color={slot.outcome ? OUTCOME_COLOR[slot.outcome] : "info"}
      />
      <Typography variant="caption">
        {slot.kind === "manual" ? "Run now" : "Slot"} {formatUtc(slot.slotAt)}
      </Typography>
      {slot.buildId && /^\d+$/.test(slot.buildId) && (
        <Link component={RouterLink} to={buildHref(setting, slot.buildId)} variant="caption">
          Build {slot.buildId}
          {slot.buildStatus ? `: ${humanize(slot.buildStatus)}` : ""}
        </Link>
      )}
      {slot.testRunKey && (
        <Link
          component={RouterLink}
          to={`/test_runs/${encodeURIComponent(slot.testRunKey)}`}
          variant="caption"
        >
          Open run {slot.testRunKey}
        </Link>
      )}
      {slot.message && (
        <Typography variant="caption" color="text.secondary">
          {slot.message}
        </Typography>
      )}
      {slot.rerunBuildId && (
        <Typography variant="caption">Rerun of failures: build {slot.rerunBuildId}</Typography>
      )}
      {slot.rerunMessage && (
        <Typography variant="caption" color="text.secondary">
          {slot.rerunMessage}
        </Typography>
      )}
      {slot.notifyState && (
        <Typography
          variant="caption"
          color={slot.notifyState === "failed" ? "error.main" : "text.secondary"}
        >
          Webhook {NOTIFY_LABEL[slot.notifyState]}
          {slot.notifyMessage ? `: ${slot.notifyMessage}` : ""}
        </Typography>
      )}
      {missed > 0 && slot.outcome !== "missed" && (
        <Typography variant="caption" color="warning.main">
          {missed} of the last slots missed
        </Typography>
      )}
    </Stack>
  );
}

/** One setting as the table shows it, with Edit, Delete and Run now. */
export function SettingRow(props: {
  setting: Setting;
  signedIn: boolean;
  busy: boolean;
  onEdit: () => void;
  onDelete: () => void;
  onRunNow: () => void;
}) {
  const { setting } = props;
  const action = (label: string, onClick: () => void, color?: "error") => (
    <Tooltip title={props.signedIn ? "" : SIGN_IN_HINT}>
      <span>
        <Button
          size="small"
          color={color}
          disabled={!props.signedIn || props.busy}
          onClick={onClick}
        >
          {label}
        </Button>
      </span>
    </Tooltip>
  );
  return (
    <TableRow hover>
      <TableCell sx={{ fontWeight: 500 }}>{setting.name}</TableCell>
      <TableCell>{setting.description}</TableCell>
      <TableCell>{setting.isActive === 1 ? "True" : "False"}</TableCell>
      <TableCell>
        {setting.scheduleText ?? (
          <Typography variant="body2" color="text.secondary">
            By hand only
          </Typography>
        )}
        {setting.nextRuns.length > 0 && (
          <Typography variant="caption" component="div" color="text.secondary">
            Next: {setting.nextRuns.map((run) => formatUtc(run)).join(" · ")}
          </Typography>
        )}
        {setting.rerunFailures && (
          <Typography variant="caption" component="div" color="text.secondary">
            Reruns failures once
          </Typography>
        )}
        {setting.webhook && (
          <Typography variant="caption" component="div" color="text.secondary">
            {setting.webhook.format === "slack" ? "Slack" : "JSON"} webhook {setting.webhook.url}
          </Typography>
        )}
      </TableCell>
      <TableCell>
        <LastBuild setting={setting} />
      </TableCell>
      <TableCell sx={{ whiteSpace: "nowrap" }}>
        {action("Edit", props.onEdit)}
        {action("Delete", props.onDelete, "error")}
        {action("Run now", props.onRunNow)}
      </TableCell>
    </TableRow>
  );
}
