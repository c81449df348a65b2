import Autocomplete from "@mui/material/Autocomplete";
import TextField from "@mui/material/TextField";
import type { SxProps, Theme } from "@mui/material/styles";
import { TAG_NAME_MAX_LENGTH, TAG_NAME_RULE } from "@assay/core";
import { LimitHelper } from "../../components/fields/LimitedTextField";

/** Spec section 9: the tag suggestion list is at most 300 px high. */
export const TAG_SUGGESTIONS_MAX_HEIGHT = 300;

interface TagNameFieldProps {
  value: string;
  onChange: (value: string) => void;
  /** Existing tag names to suggest; any other name may still be typed (it creates a tag). */
  suggestions: readonly string[];
  /** Picking a suggestion adds it at once, instead of only filling the field. */
  onPick?: (name: string) => void;
  label?: string;
  disabled?: boolean;
  error?: string | null;
  /** Under the field, what a tag is and its length (the Dynamic Tags screen's form). */
  showRule?: boolean;
  sx?: SxProps<Theme>;
}

/**
 * A tag name with suggestions from the existing tags, for use inside a form. Typed text is kept
 * as it is; the rules (lower case, length) are applied when the tag is added, so the user sees
 * why a name is refused.
 */
export function TagNameField(props: TagNameFieldProps) {
  const { value, onChange, suggestions, onPick, disabled, error, showRule, sx } = props;
  return (
    <Autocomplete
      freeSolo
      disableClearable
      size="small"
      options={suggestions as string[]}
      // Always "nothing selected", so the field holds just text: Enter on it submits the
      // enclosing form, and Enter on a highlighted suggestion picks that suggestion.
      value={null as unknown as string}
      inputValue={value}
      onInputChange={(_event, next) => onChange(next)}
      onChange={(_event, next, reason) => {
        if (typeof next === "string" && reason === "selectOption") onPick?.(next);
      }}
      disabled={disabled}
      sx={sx}
      slotProps={{ listbox: { sx: { maxHeight: TAG_SUGGESTIONS_MAX_HEIGHT } } }}
      renderInput={(params) => (
        <TextField
          {...params}
          label={props.label ?? "Tag"}
          error={Boolean(error)}
          helperText={
            error ??
            (showRule ? (
              <LimitHelper value={value} maxChars={TAG_NAME_MAX_LENGTH} what="tag name">
                {TAG_NAME_RULE}
              </LimitHelper>
            ) : undefined)
          }
        />
      )}
    />
  );
}
