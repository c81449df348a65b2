import type { TaggedTest } from "@assay/core";
import { useState } from "react";
import { testsPhrase, useAddTag, useRestoreTag } from "./use-tags";

/** A tag change Undo can take back: a test taken out of a tag, or a whole tag deleted. */
type Undoable =
  | { kind: "removal"; tagName: string; test: TaggedTest }
  | { kind: "deletion"; tagId: number; tagName: string; tests: number };

function doneText(change: Undoable): string {
  if (change.kind === "removal") return `Removed TC${change.test.id} from ${change.tagName}.`;
  if (change.tests === 0) return `Deleted ${change.tagName}.`;
  return `Deleted ${change.tagName} and took it off ${testsPhrase(change.tests)}.`;
}

/**
 * The Dynamic Tags screen's Undo: `offer` what was just done, and UndoSnackbar gets the rest.
 * A removal is undone with the Add tag form's POST, a deletion by restoring the kept tag.
 */
export function useTagUndo() {
  const addTag = useAddTag();
  const restoreTag = useRestoreTag();
  const [change, setChange] = useState<Undoable | null>(null);
  const mutation = change?.kind === "deletion" ? restoreTag : addTag;

  const offer = (next: Undoable | null) => {
    addTag.reset();
    restoreTag.reset();
    setChange(next);
  };
  const close = () => offer(null);
  const undo = () => {
    if (change?.kind === "removal") {
      const { tagName, test } = change;
      addTag.mutate({ name: tagName, testId: test.id, testName: test.name }, { onSuccess: close });
    } else if (change?.kind === "deletion") {
      restoreTag.mutate(change.tagId, { onSuccess: close });
    }
  };
  return {
    offer,
    snackbar: {
      done: change && doneText(change),
      failed: mutation.error ? `Could not undo it: ${mutation.error.message}` : null,
      pending: mutation.isPending,
      onUndo: undo,
      onClose: close,
    },
  };
}
