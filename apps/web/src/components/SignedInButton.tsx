import Box from "@mui/material/Box";
import Button, { type ButtonProps } from "@mui/material/Button";
import Tooltip from "@mui/material/Tooltip";
import { SIGN_IN_HINT, useSignedIn } from "../api/use-signed-in";

export type SignedInButtonProps = ButtonProps & {
  /** The tooltip when signed in (the spec's New Build says 'Create new build'). */
  tooltip?: string;
};

/**
 * A button for a change that needs sign-in (New Build, Rerun ...): signed out, it is disabled
 * with the tooltip 'Please sign in' (spec sections 2 and 4). One rule for every screen.
 */
export function SignedInButton({ tooltip, disabled, ...props }: SignedInButtonProps) {
  const signedIn = useSignedIn();
  // A disabled button fires no mouse events, so the tooltip hangs on a wrapper; the wrapper is
  // always there, so the button is updated in place when the sign-in state arrives.
  return (
    <Tooltip title={signedIn ? (tooltip ?? "") : SIGN_IN_HINT}>
      <Box component="span" sx={{ display: "inline-flex" }}>
        <Button {...props} disabled={!signedIn || disabled} />
      </Box>
    </Tooltip>
  );
}
