import { SETTING_NAME_MAX_LENGTH, type BuildTemplate } from "@assay/core";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Checkbox from "@mui/material/Checkbox";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import FormControlLabel from "@mui/material/FormControlLabel";
import Link from "@mui/material/Link";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import { useState, type FormEvent } from "react";
import { Link as RouterLink } from "react-router";
import { useSaveSetting } from "../../api/use-save-setting";
import { LimitedTextField, lengthProblem } from "../../components/fields/LimitedTextField";

const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Why a daily time cannot be used, or null: HH:MM on a 24-hour clock. */
export function dailyTimeProblem(time: string): string | null {
  if (time.trim() === "") return "Enter the time it runs each day, e.g. 02:00.";
  return TIME.test(time) ? null : "Enter the time as HH:MM on a 24-hour clock, e.g. 02:00.";
}

/** The browser's own time zone, the likeliest one for "every day at 02:00". */
function localTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
}

/**
 * 'Save as schedule' from a Create Build dialog: the dialog's choices (already checked by its
 * rules) become a Daily Run Scheduler setting that launches that build every day at a time, in a
 * time zone; the server checks the template again by the same rules.
 */
export function SaveAsScheduleDialog({
  template,
  onClose,
}: {
  template: BuildTemplate;
  onClose: () => void;
}) {
  const save = useSaveSetting();
  const [name, setName] = useState("");
  const [time, setTime] = useState("02:00");
  const [timeZone, setTimeZone] = useState(localTimeZone);
  const [rerunFailures, setRerunFailures] = useState(true);
  const [touched, setTouched] = useState(false);
  const nameMissing = name.trim() === "";
  const nameProblem = nameMissing
    ? "Name is required"
    : lengthProblem(name, "name", SETTING_NAME_MAX_LENGTH);
  const timeProblem = dailyTimeProblem(time);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    // Opened from a Create Build dialog: its submit must not reach that dialog's form too.
    event.stopPropagation();
    setTouched(true);
    if (nameProblem || timeProblem) return;
    const [hours = "2", minutes = "0"] = time.split(":");
    save.mutate({
      id: null,
      body: {
        name,
        isActive: 1,
        cron: `${Number(minutes)} ${Number(hours)} * * *`,
        timeZone,
        template,
        rerunFailures,
      },
    });
  };

  const saved = save.data;
  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="save-schedule-title">
      <DialogTitle id="save-schedule-title">Save as schedule</DialogTitle>
      <form noValidate onSubmit={submit} style={{ display: "contents" }}>
        <DialogContent dividers>
          {saved ? (
            <Alert severity="success">
              Saved as schedule “{saved.name}”: {saved.scheduleText}.{" "}
              <Link component={RouterLink} to="/settings">
                Open the Daily Run Scheduler
              </Link>
            </Alert>
          ) : (
            <Stack sx={{ gap: 2 }}>
              <LimitedTextField
                label="Schedule name"
                what="name"
                maxChars={SETTING_NAME_MAX_LENGTH}
                required
                autoFocus
                value={name}
                onChange={(event) => setName(event.target.value)}
                error={touched && nameMissing}
                helperText={touched && nameMissing ? "Name is required" : " "}
              />
              <Stack direction="row" sx={{ gap: 2 }}>
                <TextField
                  label="Every day at"
                  type="time"
                  value={time}
                  onChange={(event) => setTime(event.target.value)}
                  error={touched && timeProblem !== null}
                  helperText={touched && timeProblem ? timeProblem : "24-hour clock"}
                  slotProps={{ inputLabel: { shrink: true } }}
                  sx={{ width: 220 }}
                />
                <TextField
                  label="Time zone"
                  value={timeZone}
                  onChange={(event) => setTimeZone(event.target.value)}
                  helperText="IANA name, e.g. Europe/Berlin"
                  sx={{ flex: 1 }}
                />
              </Stack>
              <FormControlLabel
                control={
                  <Checkbox
                    checked={rerunFailures}
                    onChange={(event) => setRerunFailures(event.target.checked)}
                  />
                }
                label="Rerun failures once, into the same run"
              />
              {save.isError && <Alert severity="error">{save.error.message}</Alert>}
            </Stack>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{saved ? "Close" : "Cancel"}</Button>
          {!saved && (
            <Button type="submit" variant="contained" disabled={save.isPending}>
              {save.isPending ? "Saving…" : "Save schedule"}
            </Button>
          )}
        </DialogActions>
      </form>
    </Dialog>
  );
}
