import { useEffect, useState } from "react";
import { Navigate } from "react-router";
import { afterSignOut, forgetAfterSignOut } from "../api/sign-in";

/**
 * The root ("/"): the default screen, or, right after signing out, the page signed out from
 * (the identity provider sends the browser back to the root). Read once on mount, forgotten
 * after, so a later visit of the root opens the default screen.
 */
export function RootRedirect({ to }: { to: string }) {
  const [target] = useState(() => afterSignOut() ?? to);
  useEffect(() => forgetAfterSignOut(), []);
  return <Navigate to={target} replace />;
}
