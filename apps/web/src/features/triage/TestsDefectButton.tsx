import LabelOutlined from "@mui/icons-material/LabelOutlined";
import IconButton from "@mui/material/IconButton";
import Tooltip from "@mui/material/Tooltip";
import { useState } from "react";
import { SIGN_IN_HINT, useSignedIn } from "../../api/use-signed-in";
import { SignedInButton } from "../../components/SignedInButton";
import { DefectDialog } from "./DefectDialog";

/**
 * The Failed Summary's "set the defect type" for a tag's failures or all of them: one decision
 * for the run's failures of these tests (PUT /v1/runs/{key}/defect). Signed out it is disabled
 * with 'Please sign in', as every change is.
 */
export function TestsDefectButton({
  runKey,
  tests,
  what,
  icon = false,
}: {
  runKey: string;
  tests: readonly number[];
  /** What the failures are, in words: "the failures of @login", "all the run's failures". */
  what: string;
  /** A small icon (a summary line) rather than a button. */
  icon?: boolean;
}) {
  const signedIn = useSignedIn();
  const [open, setOpen] = useState(false);
  const label = `Set the defect type of ${what}`;
  return (
    <>
      {icon ? (
        <Tooltip title={signedIn ? label : SIGN_IN_HINT}>
          <span>
            <IconButton
              aria-label={label}
              onClick={() => setOpen(true)}
              disabled={!signedIn}
              sx={{ p: 0.25 }}
            >
              <LabelOutlined sx={{ fontSize: 16 }} />
            </IconButton>
          </span>
        </Tooltip>
      ) : (
        <SignedInButton startIcon={<LabelOutlined />} tooltip={label} onClick={() => setOpen(true)}>
          Set defect type
        </SignedInButton>
      )}
      {open && (
        <DefectDialog
          open
          onClose={() => setOpen(false)}
          title={label}
          note={`One decision for ${what} in this run (${tests.length} test${tests.length === 1 ? "" : "s"}).`}
          path={`/v1/runs/${encodeURIComponent(runKey)}/defect`}
          extra={{ tests }}
          submitLabel="Set for all"
        />
      )}
    </>
  );
}
