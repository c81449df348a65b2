/**
 * The right-hand side of the header, where the sign-in button or the signed-in user's menu will
 * go once sign-in exists (roadmap step 3). Until then it deliberately renders nothing.
 */
export function HeaderActions() {
  return null;
}
