import { type RetentionPass, type RetentionPolicyView } from "@assay/core";
import Alert from "@mui/material/Alert";
import Chip from "@mui/material/Chip";
import Paper from "@mui/material/Paper";
import Skeleton from "@mui/material/Skeleton";
import Stack from "@mui/material/Stack";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import Typography from "@mui/material/Typography";
import {
  period,
  PERIOD_LABELS,
  freedText,
  removedText,
  ruleMatch,
  STATE_LABEL,
  TRIGGER_LABEL,
} from "./retention-words";
import { useRetention } from "./use-retention";

const STATE_COLOUR = {
  running: "info",
  finished: "success",
  failed: "error",
  abandoned: "warning",
} as const;

/** The periods as a table: one column for the default, one per rule, in the order they apply. */
function PolicyTable({ policy }: { policy: RetentionPolicyView }) {
  const columns = [
    { name: "All other runs", periods: policy.default },
    ...policy.rules.map((rule) => ({ name: ruleMatch(rule), periods: rule })),
  ];
  return (
    <Table size="small" aria-label="Retention policy">
      <TableHead>
        <TableRow>
          <TableCell>Kept</TableCell>
          {columns.map((column, i) => (
            <TableCell key={i}>{column.name}</TableCell>
          ))}
        </TableRow>
      </TableHead>
      <TableBody>
        {PERIOD_LABELS.map(([key, label]) => (
          <TableRow key={key}>
            <TableCell>{label}</TableCell>
            {columns.map((column, i) => (
              <TableCell key={i} sx={{ fontVariantNumeric: "tabular-nums" }}>
                {period(column.periods[key] ?? policy.default[key])}
              </TableCell>
            ))}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

const when = (iso: string) => `${iso.slice(0, 16).replace("T", " ")} UTC`;

function LastPass({ pass }: { pass: RetentionPass | null }) {
  if (!pass)
    return (
      <Typography color="text.secondary" aria-label="Last retention pass">
        No pass yet: the first runs at the next scheduled time.
      </Typography>
    );
  return (
    <Stack sx={{ gap: 0.5 }} aria-label="Last retention pass">
      <Stack direction="row" sx={{ gap: 1, alignItems: "center" }}>
        <Typography variant="subtitle2">Last pass</Typography>
        <Chip
          size="small"
          variant="outlined"
          color={STATE_COLOUR[pass.state]}
          label={STATE_LABEL[pass.state]}
        />
        <Typography variant="body2" color="text.secondary">
          {when(pass.startedAt)} · {TRIGGER_LABEL[pass.trigger]}
        </Typography>
      </Stack>
      <Typography variant="body2">{removedText(pass)}</Typography>
      <Typography variant="body2">{freedText(pass)}</Typography>
      {pass.message && (
        <Alert severity={pass.state === "failed" ? "error" : "warning"}>{pass.message}</Alert>
      )}
    </Stack>
  );
}

/**
 * Retention on the Setting screen: the policy assay.config.yaml gives (read-only: it is changed
 * in the file) and what the last pass removed and returned.
 */
export function RetentionSection() {
  const retention = useRetention();
  let body;
  if (retention.isPending) body = <Skeleton variant="rounded" height={120} />;
  else if (retention.isError)
    body = <Alert severity="error">Could not load retention: {retention.error.message}</Alert>;
  else if (!retention.data.policy)
    body = (
      <Typography color="text.secondary">
        No retention policy: nothing is ever removed. Add a retention: key to assay.config.yaml to
        keep the store&apos;s size in bounds.
      </Typography>
    );
  else
    body = (
      <Stack sx={{ gap: 2 }}>
        <PolicyTable policy={retention.data.policy} />
        <LastPass pass={retention.data.lastPass} />
      </Stack>
    );
  return (
    <Paper sx={{ p: 2 }} component="section" aria-labelledby="retention-title">
      <Stack direction="row" sx={{ alignItems: "baseline", mb: 1, gap: 2 }}>
        <Typography id="retention-title" variant="h6" component="h2" sx={{ flexGrow: 1 }}>
          Retention
        </Typography>
        {retention.data?.policy && (
          <Typography variant="caption" color="text.secondary">
            From assay.config.yaml · nightly at {retention.data.policy.schedule} (cron, UTC) ·
            counts are kept per day for the Dashboard, Top Fails and Test History
          </Typography>
        )}
      </Stack>
      {body}
    </Paper>
  );
}
