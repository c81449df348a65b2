/** Spec section 8: what a failed detail fetch says. */
export const DETAIL_ERROR = "Error occurred fetching test details...";
/** Spec section 8: what the script panel says when the report has no script. */
export const SCRIPT_MISSING = "Not found! Probably failed at 'Before' action";
