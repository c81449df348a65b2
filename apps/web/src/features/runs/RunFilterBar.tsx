import type { RunFilters } from "@assay/core";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import { useState } from "react";
import type { ReportTab } from "./report-url";

type TextName = "q" | "site" | "branch";

/**
 * A text filter applied when it is left or Enter is pressed (each keystroke would be a request
 * and a new URL). Keyed by its value where it is used, so it starts again from the URL when
 * that changes (Back, Clear filters).
 */
function TextFilter(props: {
  label: string;
  value: string | undefined;
  width: number;
  placeholder?: string;
  onApply: (value: string | undefined) => void;
}) {
  const [text, setText] = useState(props.value ?? "");
  const apply = () => {
    const next = text.trim() === "" ? undefined : text.trim();
    if (next !== props.value) props.onApply(next);
  };
  return (
    <TextField
      size="small"
      label={props.label}
      placeholder={props.placeholder}
      value={text}
      onChange={(event) => setText(event.target.value)}
      onBlur={apply}
      onKeyDown={(event) => {
        if (event.key === "Enter") apply();
      }}
      sx={{ width: props.width }}
      slotProps={{ htmlInput: { maxLength: props.label === "Search" ? 200 : 255 } }}
    />
  );
}

function SelectFilter(props: {
  label: string;
  value: string | undefined;
  options: [string, string][];
  onApply: (value: string | undefined) => void;
}) {
  return (
    <TextField
      select
      size="small"
      label={props.label}
      value={props.value ?? ""}
      onChange={(event) => props.onApply(event.target.value || undefined)}
      sx={{ width: 150 }}
    >
      <MenuItem value="">Any</MenuItem>
      {props.options.map(([value, label]) => (
        <MenuItem key={value} value={value}>
          {label}
        </MenuItem>
      ))}
    </TextField>
  );
}

/**
 * The run list's filters (issue 32): search over name and run key, platform and region (UI
 * runs), site or env, branch, failures, and a date range. They live in the URL, so a filtered
 * list is a link; the server filters.
 */
export function RunFilterBar({
  tab,
  filters,
  onChange,
}: {
  tab: ReportTab;
  filters: RunFilters;
  onChange: (filters: RunFilters) => void;
}) {
  const set = (name: keyof RunFilters) => (value: string | undefined) => {
    const next: Record<string, string> = { ...filters } as Record<string, string>;
    if (value === undefined) delete next[name];
    else next[name] = value;
    onChange(next as RunFilters);
  };
  const text = (name: TextName) => ({ value: filters[name], onApply: set(name) });
  const rangeProblem =
    filters.from && filters.to && filters.from > filters.to
      ? "The range ends before it starts"
      : undefined;
  const date = (name: "from" | "to", label: string) => (
    <TextField
      size="small"
      type="date"
      label={label}
      value={filters[name] ?? ""}
      onChange={(event) => set(name)(event.target.value || undefined)}
      error={rangeProblem !== undefined && name === "to"}
      helperText={name === "to" ? rangeProblem : undefined}
      slotProps={{ inputLabel: { shrink: true } }}
      sx={{ width: 160 }}
    />
  );
  return (
    <Box
      role="search"
      aria-label="Filter runs"
      sx={{ display: "flex", flexWrap: "wrap", alignItems: "flex-start", gap: 1.5, px: 2, py: 1.5 }}
    >
      <TextFilter
        key={`q:${filters.q ?? ""}`}
        label="Search"
        placeholder="Name or run key"
        width={220}
        {...text("q")}
      />
      {tab === "frontend" && (
        <>
          <SelectFilter
            label="Platform"
            value={filters.platform}
            options={[
              ["legacy", "Legacy"],
              ["nextGen", "NextGen"],
            ]}
            onApply={set("platform")}
          />
          <SelectFilter
            label="Region"
            value={filters.region}
            options={[
              ["US", "US"],
              ["CHINA", "China"],
            ]}
            onApply={set("region")}
          />
        </>
      )}
      <TextFilter
        key={`site:${filters.site ?? ""}`}
        label={tab === "frontend" ? "Site" : "Env"}
        width={200}
        {...text("site")}
      />
      <TextFilter
        key={`branch:${filters.branch ?? ""}`}
        label="Branch"
        width={160}
        {...text("branch")}
      />
      <SelectFilter
        label="Status"
        value={filters.status}
        options={[
          ["failed", "With failures"],
          ["passed", "No failures"],
        ]}
        onApply={set("status")}
      />
      {date("from", "From")}
      {date("to", "To")}
      {Object.keys(filters).length > 0 && (
        <Button onClick={() => onChange({})} sx={{ alignSelf: "center" }}>
          Clear filters
        </Button>
      )}
    </Box>
  );
}
