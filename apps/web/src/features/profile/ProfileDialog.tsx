import {
  PROFILE_ALERT_MS,
  PROFILE_NAME_MAX_LENGTH,
  PROFILE_SPIRA_PASS_MAX_LENGTH,
  PROFILE_SPIRA_USER_MAX_LENGTH,
  type Me,
} from "@assay/core";
import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Checkbox from "@mui/material/Checkbox";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import FormControlLabel from "@mui/material/FormControlLabel";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import { useEffect, useState, type FormEvent } from "react";
import { LimitedTextField, lengthProblem } from "../../components/fields/LimitedTextField";
import { PictureField } from "./PictureField";
import { useSaveProfile } from "./use-save-profile";

/**
 * The Profile dialog (spec sections 2, 3 "User profile", 8): the email is read-only; the name,
 * test-management username, test-management password or API key, and picture are editable. The
 * password is write-only: the dialog only says whether one is stored. A failed save shows its
 * error for 6 seconds (spec section 9); a successful one closes the dialog.
 */
export function ProfileDialog({ me, onClose }: { me: Me; onClose: () => void }) {
  const save = useSaveProfile();
  const [name, setName] = useState(me.name);
  const [spiraUser, setSpiraUser] = useState(me.spira_user ?? "");
  const [spiraPass, setSpiraPass] = useState("");
  const [removePass, setRemovePass] = useState(false);
  const [picture, setPicture] = useState<File | undefined>();
  const [removePicture, setRemovePicture] = useState(false);
  const [alert, setAlert] = useState<string | undefined>();

  useEffect(() => {
    if (!alert) return;
    const timer = setTimeout(() => setAlert(undefined), PROFILE_ALERT_MS);
    return () => clearTimeout(timer);
  }, [alert]);

  const nameMissing = name.trim() === "";
  // Each field says so under it; the dialog does not send a value the server would refuse.
  const tooLong =
    lengthProblem(name.trim(), "name", PROFILE_NAME_MAX_LENGTH) ??
    lengthProblem(spiraUser.trim(), "test-management username", PROFILE_SPIRA_USER_MAX_LENGTH) ??
    lengthProblem(spiraPass, "password or API key", PROFILE_SPIRA_PASS_MAX_LENGTH);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (nameMissing || tooLong) return;
    const passChange = removePass
      ? { spira_pass: null }
      : spiraPass
        ? { spira_pass: spiraPass }
        : {};
    save.mutate(
      {
        update: { name: name.trim(), spira_user: spiraUser.trim() || null, ...passChange },
        picture,
        removePicture,
      },
      { onSuccess: onClose, onError: (error) => setAlert(error.message) },
    );
  };

  const passHelp = removePass
    ? "Will be removed when you save"
    : spiraPass
      ? "Will be stored when you save; it is never shown again."
      : me.spira_pass_set
        ? "Set. Type a new one to replace it; it is never shown."
        : "Not set";

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs" aria-labelledby="profile-title">
      <form onSubmit={submit} noValidate>
        <DialogTitle id="profile-title">Profile</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <PictureField
              name={name || me.name}
              email={me.email}
              current={me.picture}
              chosen={picture}
              removed={removePicture}
              onChoose={(file) => {
                setPicture(file);
                setRemovePicture(false);
              }}
              onRemove={() => {
                setPicture(undefined);
                setRemovePicture(true);
              }}
              onProblem={setAlert}
            />
            <TextField
              label="Email"
              value={me.email}
              slotProps={{ input: { readOnly: true, sx: { bgcolor: "action.hover" } } }}
              helperText="Read-only: it is how you sign in"
            />
            <LimitedTextField
              label="Name"
              what="name"
              maxChars={PROFILE_NAME_MAX_LENGTH}
              required
              value={name}
              onChange={(event) => setName(event.target.value)}
              error={nameMissing}
              helperText={nameMissing ? "Name is required" : undefined}
              autoFocus
            />
            <LimitedTextField
              label="Test-management username"
              what="test-management username"
              maxChars={PROFILE_SPIRA_USER_MAX_LENGTH}
              value={spiraUser}
              onChange={(event) => setSpiraUser(event.target.value)}
              autoComplete="off"
            />
            <Stack spacing={0.5}>
              <LimitedTextField
                label="Test-management password or API key"
                what="password or API key"
                maxChars={PROFILE_SPIRA_PASS_MAX_LENGTH}
                type="password"
                value={spiraPass}
                onChange={(event) => setSpiraPass(event.target.value)}
                disabled={removePass}
                autoComplete="new-password"
                placeholder={me.spira_pass_set ? "••••••••" : ""}
                helperText={passHelp}
              />
              {me.spira_pass_set && (
                <FormControlLabel
                  control={
                    <Checkbox
                      size="small"
                      checked={removePass}
                      onChange={(event) => setRemovePass(event.target.checked)}
                    />
                  }
                  label="Remove the stored password or API key"
                />
              )}
            </Stack>
            {alert && (
              <Alert severity="error" onClose={() => setAlert(undefined)}>
                {alert}
              </Alert>
            )}
          </Stack>
        </DialogContent>
        <DialogActions sx={{ px: 3, pb: 2 }}>
          <Button onClick={onClose}>Cancel</Button>
          <Button
            type="submit"
            variant="contained"
            loading={save.isPending}
            disabled={nameMissing || tooLong !== null}
          >
            Save
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
