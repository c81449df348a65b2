import { formatUtc, type RmsDetail, type RmsTestLink } from "@assay/core";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import CircularProgress from "@mui/material/CircularProgress";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import Table from "@mui/material/Table";
import TableBody from "@mui/material/TableBody";
import TableCell from "@mui/material/TableCell";
import TableHead from "@mui/material/TableHead";
import TableRow from "@mui/material/TableRow";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useState, type FormEvent } from "react";
import { useEditRmsLink, useRmsLinks } from "./use-rms-links";

/**
 * 'Linked tests: {rms}': link a test by its id, remove a link, and every link made on the
 * screen with who made and removed it and when (removed links stay, for auditors).
 */
export function RmsLinksDialog({ rms, onClose }: { rms: RmsDetail; onClose: () => void }) {
  const links = useRmsLinks(rms.id);
  const edit = useEditRmsLink(rms.id);
  const [testId, setTestId] = useState("");
  const [done, setDone] = useState<string | null>(null);
  const live = links.data?.filter((link) => link.removedAt === null) ?? [];
  const removed = links.data?.filter((link) => link.removedAt !== null) ?? [];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setDone(null);
    edit.mutate(
      { action: "link", testId: testId.trim() },
      {
        onSuccess: (link) => {
          setTestId("");
          setDone(`Linked TC${link.testId} ${link.testName}.`);
        },
      },
    );
  };
  const unlink = (link: RmsTestLink) => {
    setDone(null);
    edit.mutate(
      { action: "unlink", testId: link.testId },
      {
        onSuccess: () => setDone(`Removed the link of TC${link.testId}; it stays in the history.`),
      },
    );
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md">
      <DialogTitle>Linked tests: {rms.rms}</DialogTitle>
      <DialogContent sx={{ display: "grid", gap: 2 }}>
        <Typography>{rms.summary}</Typography>
        <Box
          component="form"
          onSubmit={submit}
          sx={{ display: "flex", gap: 1, alignItems: "flex-start" }}
        >
          <TextField
            size="small"
            label="Test id"
            placeholder="TC1042"
            value={testId}
            onChange={(event) => setTestId(event.target.value)}
            helperText="The test's number, as in TC1042: it then covers this RMS."
          />
          <Button type="submit" variant="contained" disabled={!testId.trim() || edit.isPending}>
            Link test
          </Button>
        </Box>
        {edit.error && <Alert severity="error">{edit.error.message}</Alert>}
        {done && <Alert severity="success">{done}</Alert>}
        <Typography variant="body2" color="text.secondary">
          Tests whose report tags or dynamic tags name {rms.rms} cover it without a link; the Test
          Runs column lists them all.
        </Typography>
        {links.isPending && <CircularProgress aria-label="Loading the links" />}
        {links.error && <Alert severity="error">{links.error.message}</Alert>}
        {links.data && (
          <LinkTable
            title="Linked on this screen"
            empty="No test is linked on this screen."
            links={live}
            onRemove={edit.isPending ? undefined : unlink}
          />
        )}
        {removed.length > 0 && (
          <LinkTable title="Removed links" empty="" links={removed} removedColumns />
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>Close</Button>
      </DialogActions>
    </Dialog>
  );
}

function LinkTable({
  title,
  empty,
  links,
  onRemove,
  removedColumns = false,
}: {
  title: string;
  empty: string;
  links: readonly RmsTestLink[];
  onRemove?: (link: RmsTestLink) => void;
  removedColumns?: boolean;
}) {
  return (
    <Box component="section" aria-label={title}>
      <Typography variant="h3" sx={{ mb: 0.5 }}>
        {title}
      </Typography>
      {links.length === 0 ? (
        <Typography variant="body2">{empty}</Typography>
      ) : (
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>Test</TableCell>
              <TableCell>Linked</TableCell>
              {removedColumns ? <TableCell>Removed</TableCell> : <TableCell />}
            </TableRow>
          </TableHead>
          <TableBody>
            {links.map((link) => (
              <TableRow key={`${link.testId}-${link.linkedAt}`}>
                <TableCell>
                  TC{link.testId} {link.testName}
                </TableCell>
                <TableCell>
                  {link.linkedBy}, {formatUtc(link.linkedAt)}
                </TableCell>
                <TableCell align={removedColumns ? "left" : "right"}>
                  {removedColumns ? (
                    `${link.removedBy ?? ""}, ${formatUtc(link.removedAt)}`
                  ) : (
                    <Button
                      size="small"
                      color="error"
                      disabled={!onRemove}
                      onClick={() => onRemove?.(link)}
                      aria-label={`Remove TC${link.testId}`}
                    >
                      Remove
                    </Button>
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Box>
  );
}
