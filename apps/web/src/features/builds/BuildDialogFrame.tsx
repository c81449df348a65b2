import {
  PARALLEL_RUNNERS_MAX,
  PARALLEL_RUNNERS_MIN,
  type Build,
  type BuildRegion,
  type BuildTemplate,
  type Catalog,
} from "@assay/core";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import type { FormEvent, ReactNode } from "react";

/** What each Create Build dialog is given; handedTags: test ids handed over (Rerun, failed ids). */
export interface BuildDialogProps {
  catalog: Catalog;
  handedTags: readonly string[];
  /** The list it was opened from: CHINA (the Frontend tab's switch) creates China builds. */
  listRegion?: BuildRegion;
  onClose: () => void;
  onCreated: (build: Build) => void;
  /**
   * Editing a schedule's build: the form starts from this saved build, and its button hands the
   * checked build to onTemplate instead of creating one (the same dialog, the same rules).
   */
  template?: BuildTemplate | null;
  onTemplate?: (template: BuildTemplate) => void;
}

/** The title and button of a dialog that edits a schedule's build rather than creating one. */
export const SCHEDULE_BUILD_SUBMIT = "Use this build";

/**
 * The frame of the three Create Build dialogs: a form with its title, the fields, an error alert
 * listing what stops the build (when there is anything to say), and Cancel / Create Builds.
 */
export function BuildDialogFrame({
  title,
  messages,
  pending,
  onSubmit,
  onClose,
  onSaveAsSchedule,
  submitLabel = "Create Builds",
  children,
}: {
  title: string;
  /** The submit button: Create Builds, or "Use this build" when editing a schedule's build. */
  submitLabel?: string;
  /** Messages shown in the error alert; empty: no alert. */
  messages: readonly string[];
  pending: boolean;
  onSubmit: () => void;
  onClose: () => void;
  /** 'Save as schedule': the same checks as Create Builds, then the choices become a schedule. */
  onSaveAsSchedule?: () => void;
  children: ReactNode;
}) {
  const titleId = "create-build-title";
  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth aria-labelledby={titleId}>
      <DialogTitle id={titleId}>{title}</DialogTitle>
      <Box
        component="form"
        noValidate
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          // Opened from the scheduler's editor (a form too): the submit is this dialog's only.
          event.stopPropagation();
          onSubmit();
        }}
        sx={{ display: "contents" }}
      >
        <DialogContent dividers sx={{ display: "grid", gap: 2 }}>
          {messages.length > 0 && (
            <Alert severity="error">
              {messages.length === 1 ? (
                messages[0]
              ) : (
                <ul style={{ margin: 0, paddingLeft: 16 }}>
                  {messages.map((message) => (
                    <li key={message}>{message}</li>
                  ))}
                </ul>
              )}
            </Alert>
          )}
          {children}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>Cancel</Button>
          {onSaveAsSchedule && (
            <Button onClick={onSaveAsSchedule} disabled={pending}>
              Save as schedule
            </Button>
          )}
          <Button type="submit" variant="contained" disabled={pending}>
            {submitLabel}
          </Button>
        </DialogActions>
      </Box>
    </Dialog>
  );
}

const RUNNER_COUNTS = Array.from(
  { length: PARALLEL_RUNNERS_MAX - PARALLEL_RUNNERS_MIN + 1 },
  (_, index) => PARALLEL_RUNNERS_MIN + index,
);

/** Parallel Runners: 1 to 10 (spec section 9), a choice so no other value can be typed. */
export function ParallelRunnersField({
  value,
  onChange,
  disabled,
}: {
  value: number;
  onChange: (runners: number) => void;
  disabled?: boolean;
}) {
  return (
    <TextField
      select
      label="Parallel Runners"
      value={value}
      disabled={disabled}
      onChange={(event) => onChange(Number(event.target.value))}
    >
      {RUNNER_COUNTS.map((count) => (
        <MenuItem key={count} value={count}>
          {count}
        </MenuItem>
      ))}
    </TextField>
  );
}
