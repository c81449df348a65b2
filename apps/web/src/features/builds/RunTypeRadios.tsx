import FormControl from "@mui/material/FormControl";
import FormControlLabel from "@mui/material/FormControlLabel";
import FormLabel from "@mui/material/FormLabel";
import Radio from "@mui/material/Radio";
import RadioGroup from "@mui/material/RadioGroup";

/**
 * The "Run type" radio row every Create Build dialog starts with (frontend, backend, load): one
 * radio per type, labelled by `labelOf`, the group named by its "Run type" label.
 */
export function RunTypeRadios<T extends string>({
  id,
  types,
  labelOf,
  value,
  onChange,
}: {
  /** The label's id, unique on the page (one dialog is open at a time, but tests render all). */
  id: string;
  types: readonly T[];
  labelOf: (type: T) => string;
  value: T;
  onChange: (type: T) => void;
}) {
  return (
    <FormControl>
      <FormLabel id={id}>Run type</FormLabel>
      <RadioGroup
        row
        aria-labelledby={id}
        value={value}
        onChange={(event) => onChange(event.target.value as T)}
      >
        {types.map((type) => (
          <FormControlLabel key={type} value={type} control={<Radio />} label={labelOf(type)} />
        ))}
      </RadioGroup>
    </FormControl>
  );
}
