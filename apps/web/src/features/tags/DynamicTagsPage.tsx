import type { TaggedTest } from "@assay/core";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Paper from "@mui/material/Paper";
import Skeleton from "@mui/material/Skeleton";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { useSignedIn } from "../../api/use-signed-in";
import { AddTagForm } from "./AddTagForm";
import { DeleteTagDialog } from "./DeleteTagDialog";
import { TagCard } from "./TagCard";
import { UndoSnackbar } from "./UndoSnackbar";
import { useTagUndo } from "./use-tag-undo";
import { useDeleteTag, useRemoveTaggedTest, useTags, type TagView } from "./use-tags";

const GRID_SX = {
  display: "grid",
  gap: 1.5,
  // Spec section 2: a three-column grid (one column on a narrow window).
  gridTemplateColumns: { xs: "minmax(0, 1fr)", md: "repeat(3, minmax(0, 1fr))" },
  alignItems: "start",
} as const;

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

function SkeletonCards() {
  return (
    <Box sx={GRID_SX} aria-label="Loading dynamic tags" aria-busy="true">
      {Array.from({ length: 6 }, (_, i) => (
        <Paper key={i} variant="outlined" sx={{ p: 1.5 }} aria-hidden>
          <Skeleton variant="text" width="40%" />
          <Skeleton variant="text" />
          <Skeleton variant="text" />
          <Skeleton variant="text" width="70%" />
        </Paper>
      ))}
    </Box>
  );
}

/** A removal that failed: what was being removed and the server's answer (spec section 8). */
interface RemovalFailure {
  what: string;
  error: Error;
}

/**
 * Dynamic Tags (/dtags): every tag in name order as a three-column grid of cards, each with its
 * tests as TC{id} and name. Signed in, tests can be tagged, taken out of a tag, and tags deleted.
 */
export function DynamicTagsPage() {
  const tags = useTags();
  const signedIn = useSignedIn();
  const deleteTag = useDeleteTag();
  const removeTest = useRemoveTaggedTest();
  const [confirming, setConfirming] = useState<TagView | null>(null);
  const [failure, setFailure] = useState<RemovalFailure | null>(null);
  const undo = useTagUndo();

  const onRemoveTest = (tag: TagView, test: TaggedTest) => {
    setFailure(null);
    undo.offer(null);
    removeTest.mutate(
      { taggedTestId: test.taggedTestId, testId: test.id, tagName: tag.name },
      {
        onSuccess: () => undo.offer({ kind: "removal", tagName: tag.name, test }),
        onError: (error) => setFailure({ what: `TC${test.id} from ${tag.name}`, error }),
      },
    );
  };

  const onConfirmDelete = (tag: TagView) => {
    undo.offer(null);
    deleteTag.mutate(tag, {
      onSuccess: (deleted) => {
        setConfirming(null);
        undo.offer({
          kind: "deletion",
          tagId: deleted.id,
          tagName: deleted.name,
          tests: deleted.testsRemoved,
        });
      },
    });
  };

  const closeDialog = () => {
    setConfirming(null);
    deleteTag.reset();
  };

  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 2 }}>
      <Box sx={{ display: "flex", alignItems: "flex-start", justifyContent: "space-between" }}>
        <AddTagForm signedIn={signedIn} tagNames={tags.data?.map((tag) => tag.name) ?? []} />
        {tags.data && (
          <Typography
            color="text.secondary"
            sx={{ pt: 1, whiteSpace: "nowrap", fontVariantNumeric: "tabular-nums" }}
          >
            {plural(tags.data.length, "tag")} ·{" "}
            {plural(
              tags.data.reduce((sum, tag) => sum + tag.tests.length, 0),
              "tagged test",
            )}
          </Typography>
        )}
      </Box>
      {failure && (
        <Alert severity="error" onClose={() => setFailure(null)}>
          Could not remove {failure.what}: {failure.error.message}
        </Alert>
      )}
      {tags.isPending ? (
        <SkeletonCards />
      ) : tags.isError ? (
        <Alert
          severity="error"
          action={
            <Button color="inherit" onClick={() => void tags.refetch()}>
              Retry
            </Button>
          }
        >
          Could not load the dynamic tags: {tags.error.message}
        </Alert>
      ) : tags.data.length === 0 ? (
        <Paper variant="outlined" sx={{ p: 4, textAlign: "center" }}>
          <Typography variant="h2">No dynamic tags yet</Typography>
          <Typography color="text.secondary" sx={{ mt: 1 }}>
            Tag a test above, or from a result card in Test Reports.
          </Typography>
        </Paper>
      ) : (
        <Box sx={GRID_SX}>
          {tags.data.map((tag) => (
            <TagCard
              key={tag.id}
              tag={tag}
              signedIn={signedIn}
              removingId={removeTest.isPending ? removeTest.variables.taggedTestId : null}
              onDelete={(chosen) => {
                deleteTag.reset();
                setConfirming(chosen);
              }}
              onRemoveTest={onRemoveTest}
            />
          ))}
        </Box>
      )}
      <UndoSnackbar {...undo.snackbar} />
      <DeleteTagDialog
        tag={confirming}
        pending={deleteTag.isPending}
        error={deleteTag.error}
        onCancel={closeDialog}
        onConfirm={onConfirmDelete}
      />
    </Box>
  );
}
