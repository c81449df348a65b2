/**
 * What the script panel says when the report has no script. Spec section 8's "Not found!
 * Probably failed at 'Before' action" blames a Before step; a backend result records none, so
 * it would guess (issue 32): the panel says what is known.
 */
export const SCRIPT_MISSING = "No script recorded";
