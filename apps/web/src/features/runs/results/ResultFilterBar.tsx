import { FAILURE_FILTERS, parseFailureFilter, type FailureFilter } from "@assay/core";
import Autocomplete from "@mui/material/Autocomplete";
import Box from "@mui/material/Box";
import FormControl from "@mui/material/FormControl";
import InputLabel from "@mui/material/InputLabel";
import MenuItem from "@mui/material/MenuItem";
import Select from "@mui/material/Select";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { memo } from "react";

const NO_FILTER = "all";

function sameTags(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((tag, index) => tag === b[index]);
}

/**
 * The results dialog's filters: dynamic tags (any of the chosen ones) and the 'Filter Failure
 * List' select. Memoized, with the tags compared by value (the URL gives a new list each time),
 * so that a Hide switch does not re-render the tag field.
 */
export const ResultFilterBar = memo(
  function ResultFilterBar({
    tagOptions,
    tags,
    onTags,
    tagNote,
    failure,
    onFailure,
  }: {
    tagOptions: readonly string[];
    tags: readonly string[];
    onTags: (tags: string[]) => void;
    /** Said under the tag filter, e.g. where its tags come from. */
    tagNote: string | null;
    failure: FailureFilter | null;
    onFailure: (filter: FailureFilter | null) => void;
  }) {
    return (
      <Box sx={{ display: "flex", gap: 2, alignItems: "flex-start", flexWrap: "wrap" }}>
        <Box sx={{ width: 380 }}>
          <Autocomplete
            multiple
            size="small"
            options={tagOptions}
            value={[...tags]}
            onChange={(_event, value) => onTags(value)}
            limitTags={3}
            filterSelectedOptions
            slotProps={{ listbox: { style: { maxHeight: 300 } } }}
            renderInput={(params) => (
              <TextField {...params} label="Dynamic tags" placeholder={tags.length ? "" : "Any"} />
            )}
          />
          {tagNote && (
            <Typography variant="caption" color="text.secondary" sx={{ display: "block", mt: 0.5 }}>
              {tagNote}
            </Typography>
          )}
        </Box>
        <FormControl size="small" sx={{ width: 240 }}>
          <InputLabel id="failure-filter-label">Filter Failure List</InputLabel>
          <Select
            labelId="failure-filter-label"
            label="Filter Failure List"
            value={failure ?? NO_FILTER}
            onChange={(event) => onFailure(parseFailureFilter(event.target.value))}
          >
            <MenuItem value={NO_FILTER}>All results</MenuItem>
            {FAILURE_FILTERS.map((filter) => (
              <MenuItem key={filter.value} value={filter.value}>
                {filter.label}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
      </Box>
    );
  },
  (before, after) =>
    sameTags(before.tags, after.tags) &&
    before.tagOptions === after.tagOptions &&
    before.tagNote === after.tagNote &&
    before.failure === after.failure &&
    before.onTags === after.onTags &&
    before.onFailure === after.onFailure,
);
