import {
  NOTIFY_CHANNELS,
  NOTIFY_WHEN,
  type NotifyChannel,
  type NotifyFilters,
  type NotifyRule,
  type NotifyRuleBody,
  type NotifyWhen,
} from "@assay/core";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import FormControlLabel from "@mui/material/FormControlLabel";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import Switch from "@mui/material/Switch";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useState, type FormEvent } from "react";
import { CHANNEL_LABEL, WHEN_LABEL } from "./rule-words";

interface Props {
  rule: NotifyRule | null;
  saving: boolean;
  error: string | null;
  onSave(body: NotifyRuleBody): void;
  onClose(): void;
}

const FILTER_FIELDS: [keyof NotifyFilters, string][] = [
  ["branch", "Branch"],
  ["site", "Site"],
  ["environment", "Environment"],
  ["name", "Run name contains"],
];

/** Adds or edits a rule. Stored secrets are never shown: left empty, they are kept. */
export function NotifyRuleDialog({ rule, saving, error, onSave, onClose }: Props) {
  const [name, setName] = useState(rule?.name ?? "");
  const [channel, setChannel] = useState<NotifyChannel>(rule?.channel ?? "slack");
  const [when, setWhen] = useState<NotifyWhen>(rule?.when ?? "failure");
  const [filters, setFilters] = useState<NotifyFilters>(rule?.filters ?? {});
  const [secret, setSecret] = useState("");
  const [email, setEmail] = useState({
    host: rule?.email?.host ?? "",
    port: String(rule?.email?.port ?? 587),
    secure: rule?.email?.secure ?? false,
    user: rule?.email?.user ?? "",
    from: rule?.email?.from ?? "",
    to: rule?.email?.to.join(", ") ?? "",
  });
  const isEmail = channel === "email";
  const keepsSecret = rule !== null && rule.hasSecret && rule.channel === channel;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const cleanFilters = Object.fromEntries(
      Object.entries(filters).filter(([, value]) => value !== undefined && value !== ""),
    ) as NotifyFilters;
    onSave({
      name,
      channel,
      when,
      filters: cleanFilters,
      isActive: rule?.isActive ?? true,
      ...(isEmail
        ? {
            email: {
              host: email.host,
              port: Number(email.port),
              secure: email.secure,
              ...(email.user ? { user: email.user } : {}),
              from: email.from,
              to: email.to.split(/[\s,;]+/).filter(Boolean),
            },
          }
        : {}),
      ...(secret ? { secret } : {}),
    });
  };
  const setFilter = (key: keyof NotifyFilters, value: string) =>
    setFilters((current) => ({ ...current, [key]: value || undefined }));

  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth component="form" onSubmit={submit}>
      <DialogTitle>{rule ? `Edit "${rule.name}"` : "Add a notification"}</DialogTitle>
      <DialogContent>
        <Stack sx={{ gap: 2, pt: 1 }}>
          <TextField label="Name" required value={name} onChange={(e) => setName(e.target.value)} />
          <Stack direction="row" sx={{ gap: 2 }}>
            <TextField
              select
              fullWidth
              label="Send to"
              value={channel}
              onChange={(e) => setChannel(e.target.value as NotifyChannel)}
            >
              {NOTIFY_CHANNELS.map((value) => (
                <MenuItem key={value} value={value}>
                  {CHANNEL_LABEL[value]}
                </MenuItem>
              ))}
            </TextField>
            <TextField
              select
              fullWidth
              label="When"
              value={when}
              onChange={(e) => setWhen(e.target.value as NotifyWhen)}
            >
              {NOTIFY_WHEN.map((value) => (
                <MenuItem key={value} value={value}>
                  {WHEN_LABEL[value]}
                </MenuItem>
              ))}
            </TextField>
          </Stack>
          <Typography variant="subtitle2">Which runs (empty: every run)</Typography>
          <Stack direction="row" sx={{ gap: 2 }}>
            <TextField
              select
              fullWidth
              label="Family"
              value={filters.family ?? ""}
              onChange={(e) => setFilter("family", e.target.value)}
            >
              <MenuItem value="">Any</MenuItem>
              <MenuItem value="frontend">Frontend</MenuItem>
              <MenuItem value="backend">Backend</MenuItem>
              <MenuItem value="load">Load</MenuItem>
            </TextField>
            <TextField
              select
              fullWidth
              label="Platform"
              value={filters.platform ?? ""}
              onChange={(e) => setFilter("platform", e.target.value)}
            >
              <MenuItem value="">Any</MenuItem>
              <MenuItem value="legacy">Legacy</MenuItem>
              <MenuItem value="nextGen">NextGen</MenuItem>
            </TextField>
          </Stack>
          <Stack direction="row" sx={{ gap: 2, flexWrap: "wrap" }}>
            {FILTER_FIELDS.map(([key, label]) => (
              <TextField
                key={key}
                label={label}
                size="small"
                sx={{ flex: "1 1 45%" }}
                value={filters[key] ?? ""}
                onChange={(e) => setFilter(key, e.target.value)}
              />
            ))}
          </Stack>
          {isEmail ? (
            <>
              <Typography variant="subtitle2">SMTP server and recipients</Typography>
              <Stack direction="row" sx={{ gap: 2 }}>
                <TextField
                  label="SMTP host"
                  required
                  sx={{ flex: 3 }}
                  value={email.host}
                  onChange={(e) => setEmail({ ...email, host: e.target.value })}
                />
                <TextField
                  label="Port"
                  required
                  sx={{ flex: 1 }}
                  value={email.port}
                  onChange={(e) => setEmail({ ...email, port: e.target.value })}
                  inputProps={{ inputMode: "numeric" }}
                />
              </Stack>
              <FormControlLabel
                control={
                  <Switch
                    checked={email.secure}
                    onChange={(e) => setEmail({ ...email, secure: e.target.checked })}
                  />
                }
                label="TLS from the start (port 465)"
              />
              <Stack direction="row" sx={{ gap: 2 }}>
                <TextField
                  label="User name"
                  fullWidth
                  value={email.user}
                  onChange={(e) => setEmail({ ...email, user: e.target.value })}
                />
                <TextField
                  label="Password"
                  type="password"
                  fullWidth
                  value={secret}
                  onChange={(e) => setSecret(e.target.value)}
                  placeholder={keepsSecret ? "Stored: leave empty to keep" : ""}
                  autoComplete="new-password"
                />
              </Stack>
              <TextField
                label="From"
                required
                value={email.from}
                onChange={(e) => setEmail({ ...email, from: e.target.value })}
              />
              <TextField
                label="To (comma-separated)"
                required
                value={email.to}
                onChange={(e) => setEmail({ ...email, to: e.target.value })}
              />
            </>
          ) : (
            <TextField
              label="Webhook URL"
              type="password"
              required={!keepsSecret}
              value={secret}
              onChange={(e) => setSecret(e.target.value)}
              placeholder={
                keepsSecret ? "Stored: leave empty to keep" : "https://hooks.slack.com/services/…"
              }
              helperText={
                keepsSecret
                  ? `Stored for ${rule?.target ?? "this rule"}; it is never shown again.`
                  : "Kept encrypted and never shown again."
              }
              autoComplete="off"
            />
          )}
          {error && <Alert severity="error">{error}</Alert>}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Cancel</Button>
        <Button type="submit" variant="contained" disabled={saving}>
          {saving ? "Saving…" : "Save"}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
