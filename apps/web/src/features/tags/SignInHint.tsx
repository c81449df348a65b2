import Box from "@mui/material/Box";
import Tooltip from "@mui/material/Tooltip";
import type { ReactElement } from "react";
import { SIGN_IN_HINT } from "../../api/use-signed-in";

/**
 * Wraps a control that changes tags: signed out, it shows the spec's 'Please sign in' tooltip
 * (the control itself is disabled by its owner). A disabled control fires no mouse events, so
 * the tooltip hangs on a wrapper.
 */
export function SignInHint({
  signedIn,
  title,
  children,
}: {
  signedIn: boolean;
  /** The tooltip when signed in, if any. */
  title?: string;
  children: ReactElement;
}) {
  // Always the same wrapper (an empty title shows no tooltip): when the sign-in state arrives,
  // the control is updated in place rather than mounted afresh, keeping focus and typed text.
  return (
    <Tooltip title={signedIn ? (title ?? "") : SIGN_IN_HINT}>
      <Box component="span" sx={{ display: "inline-flex" }}>
        {children}
      </Box>
    </Tooltip>
  );
}
