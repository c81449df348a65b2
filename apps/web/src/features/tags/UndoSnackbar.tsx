import Button from "@mui/material/Button";
import Snackbar from "@mui/material/Snackbar";

interface UndoSnackbarProps {
  /** What was done ("Removed TC502 from @smoke."); null: nothing to undo. */
  done: string | null;
  /** Why Undo failed, when it did: the message stays until closed. */
  failed: string | null;
  pending: boolean;
  onUndo: () => void;
  onClose: () => void;
}

/**
 * What a tag change just did, with Undo: removing a test is one click and a deleted tag takes
 * its tests with it, so a slip is put right here rather than by retyping them.
 */
export function UndoSnackbar({ done, failed, pending, onUndo, onClose }: UndoSnackbarProps) {
  return (
    <Snackbar
      open={done !== null}
      onClose={(_event, reason) => reason !== "clickaway" && onClose()}
      autoHideDuration={failed ? null : 10_000}
      anchorOrigin={{ vertical: "bottom", horizontal: "center" }}
      message={<span role="status">{failed ?? done}</span>}
      action={
        <Button color="inherit" size="small" disabled={pending} onClick={onUndo}>
          Undo
        </Button>
      }
    />
  );
}
