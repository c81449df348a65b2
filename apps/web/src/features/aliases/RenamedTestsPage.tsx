import type { AliasSuggestion } from "@assay/core";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import {
  useAliases,
  useAliasSuggestions,
  useConfirmSuggestion,
  useDismissSuggestion,
  useUndoAlias,
} from "../../api/use-aliases";
import { AliasRow, TestRefLink } from "../../components/AliasRow";

function SuggestionRow({ suggestion }: { suggestion: AliasSuggestion }) {
  const confirm = useConfirmSuggestion();
  const dismiss = useDismissSuggestion();
  const busy = confirm.isPending || dismiss.isPending;
  const error = confirm.error ?? dismiss.error;
  return (
    <Box data-testid="suggestion-row" sx={{ py: 1 }}>
      <Box sx={{ display: "flex", alignItems: "center", gap: 1 }}>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          <Typography component="div">
            <TestRefLink test={suggestion.test} /> → <TestRefLink test={suggestion.canonical} />
          </Typography>
          <Typography variant="body2" color="text.secondary">
            {suggestion.canonical.file ?? "no file"}: same file and steps; the first left and the
            second came in run {suggestion.runKey}
          </Typography>
        </Box>
        <Button variant="contained" disabled={busy} onClick={() => confirm.mutate(suggestion.id)}>
          Confirm rename
        </Button>
        <Button disabled={busy} onClick={() => dismiss.mutate(suggestion.id)}>
          Dismiss
        </Button>
      </Box>
      {error && <Alert severity="error">{error.message}</Alert>}
    </Box>
  );
}

/**
 * Renamed Tests (/renamed-tests): suggested renames to confirm in one click, and the aliases
 * made (with the undone ones) to undo. A rename by hand is made from a test's history.
 */
export function RenamedTestsPage() {
  const suggestions = useAliasSuggestions();
  const aliases = useAliases();
  const undo = useUndoAlias();
  return (
    <Box sx={{ display: "flex", flexDirection: "column", gap: 2 }}>
      <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-label="Suggested renames">
        <Typography variant="h2" component="h2" sx={{ mb: 1 }}>
          Suggested renames
        </Typography>
        {suggestions.isError && <Alert severity="error">{suggestions.error.message}</Alert>}
        {suggestions.data?.length === 0 && (
          <Typography color="text.secondary">
            No suggestion: a test that leaves a run while a new one with the same file and steps
            arrives shows here.
          </Typography>
        )}
        {suggestions.data?.map((suggestion) => (
          <SuggestionRow key={suggestion.id} suggestion={suggestion} />
        ))}
      </Paper>
      <Paper variant="outlined" sx={{ p: 2 }} component="section" aria-label="Renames">
        <Typography variant="h2" component="h2" sx={{ mb: 1 }}>
          Renames
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          Each earlier name's history, Top Fails and links follow the test it became. A rename by
          hand: on the test's history.
        </Typography>
        {(aliases.error ?? undo.error) && (
          <Alert severity="error">{(aliases.error ?? undo.error)?.message}</Alert>
        )}
        {aliases.data?.length === 0 && (
          <Typography color="text.secondary">No rename yet.</Typography>
        )}
        {aliases.data?.map((alias) => (
          <AliasRow
            key={alias.id}
            alias={alias}
            undoing={undo.isPending}
            onUndo={(id) => undo.mutate(id)}
          />
        ))}
      </Paper>
    </Box>
  );
}
