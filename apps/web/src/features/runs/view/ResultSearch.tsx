import Search from "@mui/icons-material/Search";
import InputAdornment from "@mui/material/InputAdornment";
import TextField from "@mui/material/TextField";
import { useEffect, useState } from "react";

// Typing a word asks the server once, after the last key, not once per key.
const DEBOUNCE_MS = 250;

/** The results dialogs' search: TC id, title, name, scenario or tag, answered by the server. */
export function ResultSearch({ onSearch }: { onSearch: (text: string) => void }) {
  const [text, setText] = useState("");
  useEffect(() => {
    const timer = setTimeout(() => onSearch(text), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, onSearch]);
  return (
    <TextField
      size="small"
      label="Search"
      placeholder="TC id, title, scenario or tag"
      value={text}
      onChange={(event) => setText(event.target.value)}
      sx={{ width: 260 }}
      slotProps={{
        htmlInput: { maxLength: 200 },
        input: {
          startAdornment: (
            <InputAdornment position="start">
              <Search fontSize="small" />
            </InputAdornment>
          ),
        },
      }}
    />
  );
}
