import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import TextField from "@mui/material/TextField";
import { useState, type FormEvent } from "react";

const DIGITS = /^\d+$/;
// A pasted "TC1234" is the id 1234, as the screens print it.
const TC_PREFIXED = /^tc(\d+)$/i;
const MAX_DIGITS = 15;

const HINT = "The number after TC, e.g. 1234 for TC1234";

/** The id a text names ("1234" or "TC1234"), or why it names none. */
function readTestId(text: string): { id: string } | { problem: string } | null {
  const typed = text.trim();
  if (typed === "") return null;
  const id = typed;
  if (!DIGITS.test(id))
    return {
      problem: `“${typed.length > 20 ? `${typed.slice(0, 20)}…` : typed}” is not a test id: digits only, e.g. 1234 (no sign, no decimals)`,
    };
  if (id.length > MAX_DIGITS) return { problem: `A test id has at most ${MAX_DIGITS} digits` };
  return { id };
}

interface TestIdFormProps {
  initial: string;
  fetching: boolean;
  onRetrieve: (testId: string) => void;
}

/**
 * The Test ID field and Retrieve button (spec section 5: Retrieve needs a non-empty numeric
 * id). The text stays as typed: one that is no id ("1.5", "-1") says why and cannot be
 * retrieved, rather than losing the characters it does not take (which made 1.5 read 15).
 */
export function TestIdForm({ initial, fetching, onRetrieve }: TestIdFormProps) {
  const [value, setValue] = useState(initial);
  const read = readTestId(value);
  const problem = read && "problem" in read ? read.problem : null;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (read && "id" in read) onRetrieve(read.id);
  };

  return (
    <Box
      component="form"
      role="search"
      aria-label="Test history lookup"
      onSubmit={onSubmit}
      noValidate
      sx={{ display: "flex", alignItems: "flex-start", gap: 1 }}
    >
      <TextField
        label="Test ID"
        value={value}
        onChange={(event) => {
          const prefixed = TC_PREFIXED.exec(event.target.value.trim());
          setValue(prefixed ? prefixed[1]! : event.target.value);
        }}
        error={problem !== null}
        helperText={problem ?? HINT}
        autoFocus={initial === ""}
        slotProps={{
          htmlInput: {
            inputMode: "numeric",
            autoComplete: "off",
            "aria-invalid": problem !== null,
          },
        }}
        sx={{ width: 280 }}
      />
      <Button
        type="submit"
        variant="contained"
        disabled={!read || problem !== null}
        sx={{ height: 40 }}
      >
        Retrieve
      </Button>
      {fetching && (
        <CircularProgress size={24} aria-label="Loading the test's history" sx={{ mt: 1 }} />
      )}
    </Box>
  );
}
