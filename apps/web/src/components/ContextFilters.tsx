import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import { useSearchParams } from "react-router";

/** The page's filters kept in its URL: `set` writes one (an empty value removes it). */
export function useFilterParams() {
  const [params, setParams] = useSearchParams();
  const set = (name: string, value: string) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next, { replace: true });
  };
  return [params, set] as const;
}

/**
 * A job context's filters (family, then free-text fields such as platform and branch), read
 * from and written to the URL; a text field applies on Enter or when it loses focus.
 */
export function ContextFilters({
  params,
  set,
  fields,
}: {
  params: URLSearchParams;
  set: (name: string, value: string) => void;
  fields: readonly (readonly [name: string, label: string])[];
}) {
  return (
    <>
      <TextField
        select
        size="small"
        label="Family"
        value={params.get("family") ?? ""}
        onChange={(event) => set("family", event.target.value)}
        sx={{ minWidth: 140 }}
      >
        <MenuItem value="">All</MenuItem>
        <MenuItem value="frontend">Frontend</MenuItem>
        <MenuItem value="backend">Backend</MenuItem>
      </TextField>
      {fields.map(([name, label]) => (
        <TextField
          key={name}
          size="small"
          label={label}
          defaultValue={params.get(name) ?? ""}
          onBlur={(event) => set(name, event.target.value.trim())}
          onKeyDown={(event) => {
            if (event.key === "Enter") set(name, (event.target as HTMLInputElement).value.trim());
          }}
        />
      ))}
    </>
  );
}
