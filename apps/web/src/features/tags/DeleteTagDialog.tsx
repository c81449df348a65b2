import Alert from "@mui/material/Alert";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogContentText from "@mui/material/DialogContentText";
import DialogTitle from "@mui/material/DialogTitle";
import { testsPhrase, type TagView } from "./use-tags";

interface DeleteTagDialogProps {
  tag: TagView | null;
  pending: boolean;
  error: Error | null;
  onCancel: () => void;
  onConfirm: (tag: TagView) => void;
}

/** Asks before a tag goes: deleting it takes it off every test (Undo, offered after, puts it back). */
export function DeleteTagDialog({
  tag,
  pending,
  error,
  onCancel,
  onConfirm,
}: DeleteTagDialogProps) {
  return (
    <Dialog open={tag !== null} onClose={onCancel} aria-labelledby="delete-tag-title" maxWidth="xs">
      {tag && (
        <>
          <DialogTitle id="delete-tag-title">Delete the tag “{tag.name}”?</DialogTitle>
          <DialogContent>
            <DialogContentText>
              {tag.tests.length === 0
                ? "No test carries it."
                : `It is taken off ${testsPhrase(tag.tests.length)}. Undo, offered once it is deleted, puts them back.`}
            </DialogContentText>
            {error && (
              <Alert severity="error" sx={{ mt: 2 }}>
                Could not delete the tag: {error.message}
              </Alert>
            )}
          </DialogContent>
          <DialogActions>
            <Button onClick={onCancel}>Cancel</Button>
            <Button
              color="error"
              variant="contained"
              disabled={pending}
              onClick={() => onConfirm(tag)}
            >
              Delete
            </Button>
          </DialogActions>
        </>
      )}
    </Dialog>
  );
}
