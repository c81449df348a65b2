import { WEBHOOK_URL_MAX_LENGTH, type Setting, type WebhookFormat } from "@assay/core";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import { LimitedTextField, lengthProblem } from "../../components/fields/LimitedTextField";

export type WebhookChoice = "none" | WebhookFormat;

export interface WebhookState {
  choice: WebhookChoice;
  url: string;
}

export function initialWebhook(setting: Setting | null): WebhookState {
  const webhook = setting?.webhook;
  // A masked URL is never put in the field: saved back, it would replace the real one.
  return { choice: webhook?.format ?? "none", url: webhook && !webhook.masked ? webhook.url : "" };
}

/**
 * The body's webhook fields: none removes it; an empty URL under a masked webhook (a
 * non-administrator editing) leaves the stored URL as it is.
 */
export function webhookBody(state: WebhookState, setting: Setting | null) {
  if (state.choice === "none") return { webhookUrl: null };
  const url = state.url.trim();
  if (url === "" && setting?.webhook?.masked) return { webhookFormat: state.choice };
  return { webhookUrl: url === "" ? null : url, webhookFormat: state.choice };
}

/** The refusal of a webhook URL over the server's limit, in the field's words, else null. */
export const webhookUrlLengthProblem = (url: string) =>
  lengthProblem(url.trim(), "webhook URL", WEBHOOK_URL_MAX_LENGTH);

/** Notify: none, or a Slack-compatible / generic JSON webhook that gets the run's summary. */
export function WebhookFields(props: {
  setting: Setting | null;
  value: WebhookState;
  onChange: (value: WebhookState) => void;
}) {
  const masked = props.setting?.webhook?.masked ? props.setting.webhook.url : null;
  return (
    <Stack direction="row" sx={{ gap: 1.5, alignItems: "flex-start" }}>
      <TextField
        select
        label="Notify"
        size="small"
        value={props.value.choice}
        onChange={(e) =>
          props.onChange({ ...props.value, choice: e.target.value as WebhookChoice })
        }
        sx={{ width: 200 }}
      >
        <MenuItem value="none">No webhook</MenuItem>
        <MenuItem value="slack">Slack webhook</MenuItem>
        <MenuItem value="json">JSON webhook</MenuItem>
      </TextField>
      {props.value.choice !== "none" && (
        <LimitedTextField
          label="Webhook URL"
          what="webhook URL"
          maxChars={WEBHOOK_URL_MAX_LENGTH}
          size="small"
          value={props.value.url}
          placeholder={masked ?? "https://hooks.slack.com/services/…"}
          onChange={(e) => props.onChange({ ...props.value, url: e.target.value })}
          helperText={
            masked
              ? `Set: ${masked} (only administrators see it in full). Leave empty to keep it.`
              : "Receives the run's summary when it ends: counts, new failures, the link."
          }
          sx={{ flex: 1 }}
        />
      )}
    </Stack>
  );
}
