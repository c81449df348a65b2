import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Divider from "@mui/material/Divider";
import Paper from "@mui/material/Paper";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useState, type FormEvent } from "react";
import { useAliases, useCreateAlias, useUndoAlias } from "../../api/use-aliases";
import { AliasRow } from "../../components/AliasRow";

/**
 * A test's renames on its history: the aliases that join its earlier names' results to it (with
 * the undone ones), Undo, and a rename recorded by hand ("was TC…").
 */
export function TestRenames({ testId }: { testId: number }) {
  const aliases = useAliases(testId);
  const create = useCreateAlias();
  const undo = useUndoAlias();
  const [oldId, setOldId] = useState("");

  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { testId: oldId.trim(), canonicalTestId: testId },
      { onSuccess: () => setOldId("") },
    );
  };
  const error = create.error ?? undo.error ?? aliases.error;

  return (
    <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-label="Renames">
      <Typography variant="h3" component="h3" sx={{ fontSize: 16, fontWeight: 600, mb: 1 }}>
        Renames
      </Typography>
      {aliases.data?.length === 0 && (
        <Typography color="text.secondary" sx={{ mb: 1 }}>
          No earlier name: this history holds TC{testId}'s own results.
        </Typography>
      )}
      {aliases.data?.map((alias) => (
        <AliasRow
          key={alias.id}
          alias={alias}
          undoing={undo.isPending}
          onUndo={(id) => undo.mutate(id)}
        />
      ))}
      <Divider sx={{ my: 1.5 }} />
      <Box
        component="form"
        onSubmit={submit}
        sx={{ display: "flex", gap: 1, alignItems: "center" }}
      >
        <TextField
          size="small"
          label="Earlier test id"
          placeholder="e.g. TC1042"
          value={oldId}
          onChange={(event) => setOldId(event.target.value)}
          sx={{ width: 220 }}
        />
        <Button type="submit" variant="outlined" disabled={!oldId.trim() || create.isPending}>
          Was renamed to TC{testId}
        </Button>
        <Typography variant="body2" color="text.secondary">
          Its history, Top Fails and links then follow this test; Undo restores them.
        </Typography>
      </Box>
      {error && (
        <Alert severity="error" sx={{ mt: 1.5 }}>
          {error.message}
        </Alert>
      )}
    </Paper>
  );
}
