import Box from "@mui/material/Box";
import TextField, { type TextFieldProps } from "@mui/material/TextField";
import type { ReactNode } from "react";

const number = new Intl.NumberFormat("en-US");

/** Characters as a person counts them (an emoji is one), the way the server's limits count. */
export const characterCount = (text: string) => [...text].length;

/** The refusal of a too-long text in the field's words: "The note can be at most 4,000 characters." */
export function tooLongMessage(what: string, max: number): string {
  return `The ${what} can be at most ${number.format(max)} characters.`;
}

/** The refusal when `value` is over `max`, else null. */
export function lengthProblem(value: string, what: string, max: number): string | null {
  return characterCount(value) > max ? tooLongMessage(what, max) : null;
}

/** The helper line of a limited field: its message (or the refusal) and "120 / 4,000". */
export function LimitHelper({
  value,
  maxChars,
  what,
  children,
}: {
  value: string;
  maxChars: number;
  what: string;
  children?: ReactNode;
}) {
  const problem = lengthProblem(value, what, maxChars);
  const count = characterCount(value);
  return (
    <Box component="span" sx={{ display: "flex", gap: 1, justifyContent: "space-between" }}>
      <span>{problem ?? children}</span>
      <Box
        component="span"
        sx={{ fontVariantNumeric: "tabular-nums", whiteSpace: "nowrap", flexShrink: 0 }}
        aria-label={`${number.format(count)} of at most ${number.format(maxChars)} characters`}
      >
        {number.format(count)} / {number.format(maxChars)}
      </Box>
    </Box>
  );
}

/**
 * A text field that shows its limit as it is typed ("120 / 4,000" under it) and, past it, says
 * so in the field's words; the form refuses to save while it is over (lengthProblem).
 */
export function LimitedTextField({
  maxChars,
  what,
  helperText,
  error,
  value,
  ...props
}: Omit<TextFieldProps, "value"> & {
  value: string;
  maxChars: number;
  /** The field in words, lower case ("note", "schedule name"). */
  what: string;
}) {
  const problem = lengthProblem(value, what, maxChars);
  const helper = (
    <LimitHelper value={value} maxChars={maxChars} what={what}>
      {helperText}
    </LimitHelper>
  );
  return (
    <TextField
      {...props}
      value={value}
      error={Boolean(error) || problem !== null}
      helperText={helper}
    />
  );
}
