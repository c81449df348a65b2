import {
  SETTING_DESCRIPTION_MAX_LENGTH,
  SETTING_NAME_MAX_LENGTH,
  type BuildTemplate,
  type Setting,
  type SettingBodyInput,
} from "@assay/core";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Checkbox from "@mui/material/Checkbox";
import FormControlLabel from "@mui/material/FormControlLabel";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { LimitedTextField, lengthProblem } from "../../components/fields/LimitedTextField";
import { ScheduleBuildDialog } from "../builds/CreateBuildDialog";
import { dailyTimeProblem } from "../builds/SaveAsScheduleDialog";
import { templateSummary } from "./template-summary";
import {
  initialWebhook,
  WebhookFields,
  webhookBody,
  webhookUrlLengthProblem,
  type WebhookState,
} from "./WebhookFields";

type Mode = "none" | "daily" | "cron";
const DAILY = /^(\d{1,2}) (\d{1,2}) \* \* \*$/;
const pad = (n: string) => n.padStart(2, "0");

function initialMode(cron: string | null): Mode {
  if (cron === null) return "none";
  return DAILY.test(cron) ? "daily" : "cron";
}

function dailyTime(cron: string | null): string {
  const match = cron ? DAILY.exec(cron) : null;
  return match ? `${pad(match[2] ?? "2")}:${pad(match[1] ?? "0")}` : "02:00";
}

type Options<T> = readonly (readonly [value: T, text: string])[];
const ACTIVE_OPTIONS: Options<0 | 1> = [
  [1, "True"],
  [0, "False"],
];
const MODE_OPTIONS: Options<Mode> = [
  ["none", "Never (by hand)"],
  ["daily", "Every day at"],
  ["cron", "Cron expression"],
];
const FAMILY_OPTIONS: Options<BuildTemplate["family"]> = [
  ["frontend", "Frontend"],
  ["backend", "Backend"],
  ["load", "Load"],
];

/** One of the editor's small fixed choices: the picked option's own value, typed. */
function Choice<T extends string | number>(props: {
  label: string;
  value: T;
  options: Options<T>;
  onChange: (value: T) => void;
  width: number;
  helperText?: string;
}) {
  return (
    <TextField
      select
      label={props.label}
      size="small"
      value={props.value}
      helperText={props.helperText}
      onChange={(e) => {
        const picked = props.options.find(([value]) => String(value) === String(e.target.value));
        if (picked) props.onChange(picked[0]);
      }}
      sx={{ width: props.width }}
    >
      {props.options.map(([value, text]) => (
        <MenuItem key={value} value={value}>
          {text}
        </MenuItem>
      ))}
    </TextField>
  );
}

/**
 * The in-place editor of one row: the spec's Name *, Description and Is Active, then when it runs
 * (never, daily at a time, or a cron, in a time zone) and what it launches (a build template).
 */
export function SettingEditor(props: {
  setting: Setting | null;
  saving: boolean;
  error: string | null;
  onSave: (body: SettingBodyInput) => void;
  onCancel: () => void;
}) {
  const s = props.setting;
  const [name, setName] = useState(s?.name ?? "");
  const [description, setDescription] = useState(s?.description ?? "");
  const [isActive, setIsActive] = useState<0 | 1>(s?.isActive ?? 1);
  const [mode, setMode] = useState<Mode>(initialMode(s?.cron ?? null));
  const [time, setTime] = useState(dailyTime(s?.cron ?? null));
  const [cron, setCron] = useState(s?.cron ?? "0 2 * * *");
  const [timeZone, setTimeZone] = useState(s?.timeZone ?? "UTC");
  const [family, setFamily] = useState<BuildTemplate["family"]>(s?.template?.family ?? "frontend");
  const [template, setTemplate] = useState<BuildTemplate | null>(s?.template ?? null);
  const [editingBuild, setEditingBuild] = useState(false);
  const [rerunFailures, setRerunFailures] = useState(s?.rerunFailures ?? false);
  const [webhook, setWebhook] = useState<WebhookState>(() => initialWebhook(s));
  const [localError, setLocalError] = useState<string | null>(null);
  const nameMissing = name.trim() === "";

  const tooLong =
    lengthProblem(name, "name", SETTING_NAME_MAX_LENGTH) ??
    lengthProblem(description, "description", SETTING_DESCRIPTION_MAX_LENGTH) ??
    (webhook.choice === "none" ? null : webhookUrlLengthProblem(webhook.url));
  const save = () => {
    if (nameMissing) return setLocalError("Name is required and must not be empty.");
    if (tooLong) return setLocalError(tooLong);
    if (mode === "daily" && dailyTimeProblem(time)) return setLocalError(dailyTimeProblem(time));
    // A schedule that runs (on time, or by Run now while active) needs what it launches.
    if (template === null && (mode !== "none" || isActive === 1)) {
      return setLocalError(
        mode === "none"
          ? "An active schedule needs a build (Run now launches it): choose one with “Choose build…”, or set Is Active to False."
          : "A schedule that runs on a time needs a build: choose one with “Choose build…”.",
      );
    }
    const [hours = "2", minutes = "0"] = time.split(":");
    const cronText =
      mode === "none"
        ? null
        : mode === "daily"
          ? `${Number(minutes)} ${Number(hours)} * * *`
          : cron;
    setLocalError(null);
    props.onSave({
      name,
      description,
      isActive,
      cron: cronText,
      timeZone,
      template,
      rerunFailures,
      ...webhookBody(webhook, s),
    });
  };

  return (
    <Stack
      sx={{ gap: 1.5, py: 1 }}
      component="form"
      noValidate
      aria-label="Edit setting"
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
    >
      <Stack direction="row" sx={{ gap: 1.5 }}>
        <LimitedTextField
          label="Name"
          what="name"
          maxChars={SETTING_NAME_MAX_LENGTH}
          required
          size="small"
          value={name}
          error={nameMissing}
          helperText={nameMissing ? "Name is required" : " "}
          onChange={(e) => {
            setName(e.target.value);
            setLocalError(null);
          }}
          sx={{ flex: 2 }}
        />
        <LimitedTextField
          label="Description"
          what="description"
          maxChars={SETTING_DESCRIPTION_MAX_LENGTH}
          size="small"
          value={description}
          onChange={(e) => {
            setDescription(e.target.value);
            setLocalError(null);
          }}
          helperText=" "
          sx={{ flex: 3 }}
        />
        <Choice
          label="Is Active"
          value={isActive}
          options={ACTIVE_OPTIONS}
          onChange={setIsActive}
          helperText=" "
          width={130}
        />
      </Stack>
      <Stack direction="row" sx={{ gap: 1.5, alignItems: "flex-start" }}>
        <Choice label="Runs" value={mode} options={MODE_OPTIONS} onChange={setMode} width={170} />
        {mode === "daily" && (
          <TextField
            label="Time"
            type="time"
            size="small"
            value={time}
            onChange={(e) => {
              setTime(e.target.value);
              setLocalError(null);
            }}
            error={dailyTimeProblem(time) !== null}
            slotProps={{ inputLabel: { shrink: true } }}
            sx={{ width: 130 }}
          />
        )}
        {mode === "cron" && (
          <TextField
            label="Cron"
            size="small"
            value={cron}
            onChange={(e) => setCron(e.target.value)}
            helperText="minute hour day month weekday"
            sx={{ width: 220 }}
          />
        )}
        <TextField
          label="Time zone"
          size="small"
          value={timeZone}
          onChange={(e) => setTimeZone(e.target.value)}
          helperText="IANA name, e.g. Europe/Berlin"
          sx={{ width: 220 }}
        />
      </Stack>
      <Stack direction="row" sx={{ gap: 1.5, alignItems: "center", flexWrap: "wrap" }}>
        <Choice
          label="Build"
          value={family}
          options={FAMILY_OPTIONS}
          onChange={(next) => {
            setFamily(next);
            setLocalError(null);
          }}
          width={140}
        />
        <Button variant="outlined" size="small" onClick={() => setEditingBuild(true)}>
          {template?.family === family ? "Edit build…" : "Choose build…"}
        </Button>
        <Typography variant="body2" color={template ? "text.primary" : "text.secondary"}>
          {template ? templateSummary(template) : "No build chosen yet"}
        </Typography>
        <FormControlLabel
          control={
            <Checkbox
              checked={rerunFailures}
              onChange={(e) => setRerunFailures(e.target.checked)}
            />
          }
          label="Rerun failures once"
        />
      </Stack>
      {editingBuild && (
        <ScheduleBuildDialog
          family={family}
          template={template}
          onClose={() => setEditingBuild(false)}
          onTemplate={(next) => {
            setTemplate(next);
            setEditingBuild(false);
            setLocalError(null);
          }}
        />
      )}
      <WebhookFields setting={s} value={webhook} onChange={setWebhook} />
      {(localError ?? props.error) && <Alert severity="error">{localError ?? props.error}</Alert>}
      <Stack direction="row" sx={{ gap: 1 }}>
        <Button type="submit" variant="contained" disabled={props.saving}>
          {props.saving ? "Saving…" : "Save"}
        </Button>
        <Button onClick={props.onCancel} disabled={props.saving}>
          Cancel
        </Button>
      </Stack>
    </Stack>
  );
}
