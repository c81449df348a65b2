import { canAddTag } from "@assay/core";
import Autocomplete from "@mui/material/Autocomplete";
import Chip from "@mui/material/Chip";
import TextField from "@mui/material/TextField";
import { useState } from "react";

/** Spec section 9: the tag suggestion list is at most 300 px high. */
export const TAG_SUGGESTIONS_MAX_HEIGHT = 300;

/**
 * The build dialogs' tag field: suggestions from the known tags; a typed tag is added only if it
 * is known and not selected yet, compared lower-cased (core's canAddTag, spec section 5 "Tags").
 * A handed-over list (failed ids) is shown as given.
 */
export function TagPicker({
  known,
  value,
  onChange,
  error,
}: {
  known: readonly string[];
  value: readonly string[];
  onChange: (tags: string[]) => void;
  /** The payload's message for the tag field, after a Create. */
  error?: string;
}) {
  const [refused, setRefused] = useState<string | null>(null);
  const [input, setInput] = useState("");
  const helper = refused ?? error ?? "Type a tag and press Enter, or pick one from the list";
  return (
    <Autocomplete
      multiple
      freeSolo
      options={known.filter((tag) => !value.includes(tag))}
      value={[...value]}
      inputValue={input}
      onInputChange={(_event, next) => setInput(next)}
      onChange={(_event, next, reason) => {
        if (reason !== "createOption" && reason !== "selectOption") {
          setRefused(null);
          onChange(next);
          return;
        }
        const candidate = next[next.length - 1] ?? "";
        if (!canAddTag(candidate, known, value)) {
          const selected = value.some(
            (tag) => tag.toLowerCase() === candidate.trim().toLowerCase(),
          );
          setRefused(
            selected
              ? `"${candidate.trim()}" is already selected`
              : `"${candidate.trim()}" is not a known tag`,
          );
          return;
        }
        setRefused(null);
        setInput("");
        onChange([...value, candidate.trim().toLowerCase()]);
      }}
      renderValue={(tags, getItemProps) =>
        tags.map((tag, index) => {
          const { key, ...itemProps } = getItemProps({ index });
          return <Chip key={key} size="small" label={tag} {...itemProps} />;
        })
      }
      slotProps={{ listbox: { style: { maxHeight: TAG_SUGGESTIONS_MAX_HEIGHT } } }}
      renderInput={(params) => (
        <TextField
          {...params}
          label="Tag"
          error={refused !== null || error !== undefined}
          helperText={helper}
        />
      )}
    />
  );
}
