import StopCircleOutlined from "@mui/icons-material/StopCircleOutlined";
import type { Build } from "@assay/core";
import { useState } from "react";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { SignedInButton } from "../../components/SignedInButton";
import { useStopBuild } from "./use-builds";

/** What the Stop question names: the build, its run and where it runs. */
export function stopQuestion(build: Pick<Build, "id" | "TEST_RUN_NAME">): string {
  return `Stop build #${build.id} (${build.TEST_RUN_NAME})?`;
}

/**
 * Stop of an active build, in its row and in its Log dialog: it asks first, since a stopped
 * build cannot be resumed (a new build starts over).
 */
export function StopBuildButton({
  build,
  size = "medium",
}: {
  build: Pick<Build, "id" | "TEST_RUN_NAME">;
  size?: "small" | "medium";
}) {
  const stop = useStopBuild(String(build.id));
  const [asking, setAsking] = useState(false);
  return (
    <>
      <SignedInButton
        color="error"
        size={size}
        startIcon={<StopCircleOutlined />}
        tooltip="Stop this build"
        aria-label={`Stop build ${build.id}`}
        disabled={stop.isPending}
        onClick={() => setAsking(true)}
      >
        Stop
      </SignedInButton>
      <ConfirmDialog
        open={asking}
        title={stopQuestion(build)}
        confirmLabel="Stop build"
        danger
        pending={stop.isPending}
        error={stop.isError ? `Could not stop the build: ${stop.error.message}` : null}
        onCancel={() => setAsking(false)}
        onConfirm={() => stop.mutate(undefined, { onSuccess: () => setAsking(false) })}
      >
        The tests it has not run yet are not run; the results it has sent stay in its run. A stopped
        build cannot be resumed.
      </ConfirmDialog>
    </>
  );
}
