import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import TextField from "@mui/material/TextField";
import { useState, type FormEvent } from "react";

const DIGITS = /^\d*$/;
// A pasted "TC1234" is the id 1234, as the screens print it.
const TC_PREFIXED = /^tc(\d+)$/i;
const MAX_DIGITS = 15;

const HINT = "The number after TC, e.g. 1234 for TC1234";
const REFUSED = "Digits only: a test id is a number, e.g. 1234";

interface TestIdFormProps {
  initial: string;
  fetching: boolean;
  onRetrieve: (testId: string) => void;
}

/**
 * The Test ID field and Retrieve button (spec section 5: Retrieve needs a non-empty numeric
 * id). Non-digits are refused as they are typed, with a helper text saying why; Enter or
 * Retrieve fetches.
 */
export function TestIdForm({ initial, fetching, onRetrieve }: TestIdFormProps) {
  const [value, setValue] = useState(initial);
  const [refused, setRefused] = useState(false);

  const onChange = (raw: string) => {
    const typed = raw.trim();
    const prefixed = TC_PREFIXED.exec(typed);
    const next = prefixed ? prefixed[1]! : typed;
    if (!DIGITS.test(next) || next.length > MAX_DIGITS) {
      setRefused(true);
      return;
    }
    setRefused(false);
    setValue(next);
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (value !== "") onRetrieve(value);
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
        onChange={(event) => onChange(event.target.value)}
        error={refused}
        helperText={refused ? REFUSED : HINT}
        autoFocus={initial === ""}
        slotProps={{ htmlInput: { inputMode: "numeric", autoComplete: "off" } }}
        sx={{ width: 280 }}
      />
      <Button type="submit" variant="contained" disabled={value === ""} sx={{ height: 40 }}>
        Retrieve
      </Button>
      {fetching && (
        <CircularProgress size={24} aria-label="Loading the test's history" sx={{ mt: 1 }} />
      )}
    </Box>
  );
}
