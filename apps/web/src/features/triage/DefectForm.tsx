import { DEFECT_TYPES, type DefectType } from "@assay/core";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import { useState } from "react";
import { useSetDefect } from "./use-triage";

/** "NXL-1, nxl-2 NXL-3" as keys; the server upper-cases them. */
export const bugKeysOf = (text: string): string[] =>
  text
    .split(/[\s,]+/)
    .map((bug) => bug.trim())
    .filter(Boolean);

/**
 * A defect decision's fields (type, comment, bug keys) and its Save, sent as PUT `path` with
 * `extra` beside them: one form for a result, a group in a run, the Failed Summary's tests and a
 * group's page. Says how many failures it recorded, or the server's words when it refused.
 */
export function DefectForm({
  path,
  extra,
  submitLabel,
  initialType = "product_bug",
  onSaved,
}: {
  path: string;
  extra?: Record<string, unknown>;
  submitLabel: string;
  initialType?: DefectType;
  onSaved?: (updated: number) => void;
}) {
  const [type, setType] = useState<DefectType>(initialType);
  const [comment, setComment] = useState("");
  const [bugs, setBugs] = useState("");
  const save = useSetDefect();
  return (
    <Box
      component="form"
      aria-label="Defect type"
      sx={{ display: "flex", gap: 1, flexWrap: "wrap", alignItems: "flex-start" }}
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate(
          { path, body: { ...extra, type, comment, bugs: bugKeysOf(bugs) } },
          { onSuccess: (answer) => onSaved?.(answer.updated) },
        );
      }}
    >
      <TextField
        select
        size="small"
        label="Defect type"
        value={type}
        onChange={(event) => setType(event.target.value as DefectType)}
        sx={{ minWidth: 180 }}
      >
        {DEFECT_TYPES.map((entry) => (
          <MenuItem key={entry.value} value={entry.value}>
            {entry.label}
          </MenuItem>
        ))}
      </TextField>
      <TextField
        size="small"
        label="Comment"
        value={comment}
        onChange={(e) => setComment(e.target.value)}
        slotProps={{ htmlInput: { maxLength: 2000 } }}
      />
      <TextField
        size="small"
        label="Bug keys"
        placeholder="NXL-123"
        value={bugs}
        onChange={(e) => setBugs(e.target.value)}
      />
      <Button type="submit" variant="contained" disabled={save.isPending}>
        {submitLabel}
      </Button>
      {save.isError && (
        <Alert severity="error" sx={{ flexBasis: "100%" }}>
          {save.error.message}
        </Alert>
      )}
      {save.isSuccess && (
        <Alert severity="success" sx={{ flexBasis: "100%" }}>
          Recorded on {save.data.updated} failure{save.data.updated === 1 ? "" : "s"}.
        </Alert>
      )}
    </Box>
  );
}
