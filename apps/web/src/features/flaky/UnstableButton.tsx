import { UNSTABLE_TAG } from "@assay/core";
import Button from "@mui/material/Button";
import Chip from "@mui/material/Chip";
import { useQueryClient } from "@tanstack/react-query";
import { useAddTag, useTags } from "../tags/use-tags";
import { flakyKeys } from "./use-flaky";

/** The '@unstable' tag's tests and their link ids, from the tags list (GET /v1/dtag). */
export function useUnstableLinks(): Map<number, number> {
  const tags = useTags();
  const unstable = tags.data?.find((tag) => tag.name === UNSTABLE_TAG);
  return new Map((unstable?.tests ?? []).map((test) => [test.id, test.taggedTestId]));
}

/**
 * "Tag @unstable" in one click, through the tags API (so the unstable counts follow the spec's
 * rule); a test already in the tag shows the tag instead.
 */
export function UnstableButton({ testId, name }: { testId: number; name: string }) {
  const links = useUnstableLinks();
  const add = useAddTag();
  const queryClient = useQueryClient();
  if (links.has(testId)) {
    return <Chip size="small" color="warning" variant="outlined" label={UNSTABLE_TAG} />;
  }
  return (
    <Button
      size="small"
      variant="outlined"
      disabled={add.isPending}
      title={add.error ? `Could not tag: ${add.error.message}` : undefined}
      color={add.error ? "error" : "primary"}
      sx={{ whiteSpace: "nowrap" }}
      onClick={() =>
        add.mutate(
          { name: UNSTABLE_TAG, testId, testName: name },
          { onSuccess: () => void queryClient.invalidateQueries({ queryKey: flakyKeys.summary }) },
        )
      }
    >
      Tag {UNSTABLE_TAG}
    </Button>
  );
}
