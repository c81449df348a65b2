import type { DhMissingRows as MissingRows, DhRow } from "@assay/core";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Stack from "@mui/material/Stack";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { useEffect, useState } from "react";
import { useFindMissingRows, useStoredMissingRows } from "./use-dh";

const plural = (n: number, one: string, many: string) =>
  `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

function KeyList({ title, keys, empty }: { title: string; keys: string[]; empty: string }) {
  return (
    <Box sx={{ flex: 1, minWidth: 0 }}>
      <Typography variant="subtitle2">
        {title} ({keys.length.toLocaleString("en-US")})
      </Typography>
      {keys.length === 0 ? (
        <Typography variant="body2" color="text.secondary">
          {empty}
        </Typography>
      ) : (
        // At most 1,000 keys (the server's bound): a scrolling list, not a page of its own.
        <Box
          component="ul"
          aria-label={title}
          sx={{
            m: 0,
            p: 1,
            maxHeight: 280,
            overflow: "auto",
            listStyle: "none",
            fontFamily: "monospace",
            fontSize: 13,
            border: 1,
            borderColor: "divider",
            borderRadius: 1,
          }}
        >
          {keys.map((key) => (
            <li key={key}>{key}</li>
          ))}
        </Box>
      )}
    </Box>
  );
}

function Found({ result }: { result: MissingRows }) {
  const listed = result.missing.length + result.extra.length;
  return (
    <Stack spacing={2}>
      <Typography variant="body2" color="text.secondary">
        Key <b>{result.key}</b> of {result.source} against {result.destination}
      </Typography>
      {result.timedOut && (
        <Alert severity="warning">
          The search stopped at its time bound: the keys below are the lowest found so far.
        </Alert>
      )}
      {result.truncated && !result.timedOut && (
        <Alert severity="warning">
          More than {result.limit.toLocaleString("en-US")} keys differ: the lowest are listed.
        </Alert>
      )}
      {listed === 0 && !result.truncated && (
        <Alert severity="success">Both tables hold the same keys.</Alert>
      )}
      <Stack direction="row" spacing={2}>
        <KeyList
          title="Missing in destination"
          keys={result.missing}
          empty="None: every source key is in the destination."
        />
        <KeyList
          title="Extra in destination"
          keys={result.extra}
          empty="None: the destination has no key the source lacks."
        />
      </Stack>
      <Typography variant="caption" color="text.secondary">
        Computed {result.computedAt.slice(0, 19).replace("T", " ")} UTC:{" "}
        {plural(result.segmentQueries, "checksum query", "checksum queries")} a side,{" "}
        {plural(result.keysRead, "key", "keys")} read, {result.elapsedMs.toLocaleString("en-US")} ms
      </Typography>
    </Stack>
  );
}

/**
 * Find missing rows on a Legacy sql row whose counts differ: the server compares key-range
 * checksums of both tables and lists the keys one side lacks (spec beyond counts, issue #23).
 * The result is kept with the row: the first opening searches, later ones show the kept result
 * and when it was computed, and Recompute searches again.
 */
export function DhFindMissingRows({
  runId,
  row,
  signedIn,
}: {
  runId: number;
  row: DhRow;
  signedIn: boolean;
}) {
  const [open, setOpen] = useState(false);
  const offered = row.status === "Unequal Counts";
  const stored = useStoredMissingRows(runId, row.id, open && offered);
  const find = useFindMissingRows();
  const search = find.mutate;
  const unsearched = open && stored.isSuccess && stored.data === null;
  useEffect(() => {
    if (unsearched && find.isIdle && signedIn) search({ runId, rowId: row.id });
  }, [unsearched, find.isIdle, signedIn, search, runId, row.id]);
  if (!offered) return null;
  const close = () => {
    setOpen(false);
    // A search that failed is tried again when the dialog opens again.
    if (find.isError) find.reset();
  };
  const result = find.isPending ? undefined : stored.data;
  return (
    <>
      <Tooltip title={signedIn ? "" : "Sign in to find missing rows"}>
        <span>
          <Button
            size="small"
            variant="outlined"
            disabled={!signedIn}
            onClick={() => setOpen(true)}
          >
            Find missing rows
          </Button>
        </span>
      </Tooltip>
      <Dialog open={open} onClose={close} maxWidth="md" fullWidth>
        <DialogTitle>Missing rows: {row.entity}</DialogTitle>
        <DialogContent>
          {(find.isPending || stored.isPending) && (
            <Stack direction="row" spacing={2} sx={{ alignItems: "center", py: 2 }}>
              <CircularProgress size={24} />
              <Typography>
                {find.isPending
                  ? "Comparing key ranges of both tables…"
                  : "Reading the last result…"}
              </Typography>
            </Stack>
          )}
          {stored.error && <Alert severity="error">{stored.error.message}</Alert>}
          {find.error && <Alert severity="error">{find.error.message}</Alert>}
          {result && <Found result={result} />}
        </DialogContent>
        <DialogActions>
          {(result || find.isError) && (
            <Button
              disabled={!signedIn}
              onClick={() => search({ runId, rowId: row.id })}
              title="Compare both tables again: their keys may have changed since"
            >
              Recompute
            </Button>
          )}
          <Button onClick={close}>Close</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
