import { formatUtc, type Alias, type AliasTestRef } from "@assay/core";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Link from "@mui/material/Link";
import Typography from "@mui/material/Typography";
import { Link as RouterLink } from "react-router";

const SOURCE_WORDS: Record<Alias["source"], string> = {
  stable_id: "found at upload by the report's stable id",
  suggestion: "confirmed suggestion",
  manual: "made by hand",
};

/** A test as "TC42 Title", linked to its history. */
export function TestRefLink({ test }: { test: AliasTestRef }) {
  return (
    <Link component={RouterLink} to={`/history/${test.id}`} underline="hover">
      TC{test.id} {test.title}
    </Link>
  );
}

/**
 * One alias: old test → the test it is now, where it came from, who made it, and Undo while it
 * is live (the Renamed Tests screen and Test History share it).
 */
export function AliasRow({
  alias,
  onUndo,
  undoing,
}: {
  alias: Alias;
  onUndo: (id: number) => void;
  undoing: boolean;
}) {
  const live = alias.undoneAt === null;
  return (
    <Box
      data-testid="alias-row"
      sx={{ display: "flex", alignItems: "center", gap: 1, py: 0.75, opacity: live ? 1 : 0.6 }}
    >
      <Box sx={{ flex: 1, minWidth: 0 }}>
        <Typography component="div">
          <TestRefLink test={alias.test} /> → <TestRefLink test={alias.canonical} />
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {SOURCE_WORDS[alias.source]}
          {alias.stableKey ? ` (${alias.stableKey})` : ""}, {alias.createdBy},{" "}
          {formatUtc(alias.createdAt).slice(0, 16)} UTC
          {live
            ? ""
            : ` · undone by ${alias.undoneBy}, ${formatUtc(alias.undoneAt).slice(0, 16)} UTC`}
        </Typography>
      </Box>
      {live && (
        <Button size="small" disabled={undoing} onClick={() => onUndo(alias.id)}>
          Undo
        </Button>
      )}
    </Box>
  );
}
