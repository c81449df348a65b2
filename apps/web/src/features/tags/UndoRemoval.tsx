import type { TaggedTest } from "@assay/core";
import Button from "@mui/material/Button";
import Snackbar from "@mui/material/Snackbar";
import { useAddTag } from "./use-tags";

/** A test just taken out of a tag: what Undo puts back. */
export interface Removal {
  tagName: string;
  test: TaggedTest;
}

/**
 * "Removed TC502 from checkout" with Undo, after the one-click × on a tag card: the removal asks
 * nothing first, so a slip is put right here (the same POST the Add tag form sends).
 */
export function UndoRemoval({
  removal,
  onClose,
}: {
  removal: Removal | null;
  onClose: () => void;
}) {
  const addTag = useAddTag();
  const undo = () => {
    if (!removal) return;
    const { tagName, test } = removal;
    addTag.mutate({ name: tagName, testId: test.id, testName: test.name }, { onSuccess: onClose });
  };
  const close = () => {
    addTag.reset();
    onClose();
  };
  const what = removal ? `TC${removal.test.id} from ${removal.tagName}` : "";
  return (
    <Snackbar
      open={removal !== null}
      onClose={(_event, reason) => reason !== "clickaway" && close()}
      autoHideDuration={addTag.isError ? null : 10_000}
      anchorOrigin={{ vertical: "bottom", horizontal: "center" }}
      message={
        <span role="status">
          {addTag.isError
            ? `Could not put back ${what}: ${addTag.error.message}`
            : `Removed ${what}.`}
        </span>
      }
      action={
        <Button color="inherit" size="small" disabled={addTag.isPending} onClick={undo}>
          Undo
        </Button>
      }
    />
  );
}
