import Replay from "@mui/icons-material/Replay";
import Link from "@mui/material/Link";
import Snackbar from "@mui/material/Snackbar";
import { useState } from "react";
import { Link as RouterLink } from "react-router";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { SignedInButton } from "../../components/SignedInButton";
import { buildsHref } from "../../components/builds-url";
import { useRerun, type RerunWhat } from "./use-rerun";

/** The question Rerun asks first: "Rerun 19 failed tests of run X on dev?". */
export function rerunQuestion(
  count: number,
  what: RerunWhat,
  runName: string,
  place: string | null,
): string {
  const tests = count === 1 ? `1 ${what} test` : `${count.toLocaleString("en-US")} ${what} tests`;
  return `Rerun ${tests} of run ${runName}${place ? ` on ${place}` : ""}?`;
}

/**
 * Rerun of a results dialog (the Failed and Unstable boxes): signed out it is disabled with
 * 'Please sign in'; it asks first, naming what will run, then starts a build of only those
 * tests and says which, with a link to Builds.
 */
export function RerunButton({
  family,
  runKey,
  runName,
  place,
  what,
  count,
  label = "Rerun",
}: {
  family: "frontend" | "backend";
  runKey: string;
  /** The run's name and where it ran (site or env), for the question. */
  runName: string;
  place: string | null;
  what: RerunWhat;
  /** Tests there are to rerun; none disables the button. */
  count: number;
  label?: string;
}) {
  const rerun = useRerun(family, runKey);
  const [open, setOpen] = useState(false);
  const [asking, setAsking] = useState(false);
  const tab = family;
  let message = "";
  if (rerun.isError) message = `Rerun refused: ${rerun.error.message}`;
  else if (rerun.data) message = `Rerun started: build #${rerun.data.build.id}`;
  return (
    <>
      <SignedInButton
        size="small"
        startIcon={<Replay />}
        aria-label={`Rerun ${what}`}
        tooltip={count === 0 ? `No ${what} tests to rerun` : `Rerun the ${count} ${what} tests`}
        disabled={count === 0 || rerun.isPending}
        onClick={() => setAsking(true)}
        sx={{ px: 0.5, minWidth: 0 }}
      >
        {label}
      </SignedInButton>
      <ConfirmDialog
        open={asking}
        title={rerunQuestion(count, what, runName, place)}
        confirmLabel="Rerun"
        pending={rerun.isPending}
        onCancel={() => setAsking(false)}
        onConfirm={() => {
          setAsking(false);
          rerun.mutate(what, { onSettled: () => setOpen(true) });
        }}
      >
        A new build runs only these tests; their results are added to this run as new attempts.
      </ConfirmDialog>
      <Snackbar
        open={open && message !== ""}
        onClose={() => setOpen(false)}
        autoHideDuration={8000}
        anchorOrigin={{ vertical: "bottom", horizontal: "center" }}
        message={
          <span role="status">
            {message}
            {rerun.data && (
              <>
                {" · "}
                <Link component={RouterLink} to={buildsHref({ tab })} color="inherit">
                  View on Builds
                </Link>
              </>
            )}
          </span>
        }
      />
    </>
  );
}
