import type { RmsImportItem, RmsImportResult } from "@assay/core";
import Alert from "@mui/material/Alert";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import Dialog from "@mui/material/Dialog";
import DialogActions from "@mui/material/DialogActions";
import DialogContent from "@mui/material/DialogContent";
import DialogTitle from "@mui/material/DialogTitle";
import List from "@mui/material/List";
import ListItem from "@mui/material/ListItem";
import ListItemText from "@mui/material/ListItemText";
import Typography from "@mui/material/Typography";

type Preview = RmsImportResult["preview"];
type Section = { count: number; items: RmsImportItem[] };

/** What a person wrote on a requirement, as the preview names it. */
function keptText(item: RmsImportItem): string {
  const parts = [];
  if (item.note) parts.push(`Note: “${item.note}”`);
  if (item.noTestNeeded) parts.push("No Automation");
  if (item.links > 0) parts.push(`${item.links} linked test${item.links === 1 ? "" : "s"}`);
  return parts.join(" · ");
}

function Changes({
  title,
  section,
  detail,
}: {
  title: string;
  section: Section;
  detail: (item: RmsImportItem) => string;
}) {
  if (section.count === 0) return null;
  return (
    <Box component="section" aria-label={title} sx={{ mt: 2 }}>
      <Typography variant="subtitle2" component="h3">
        {title} ({section.count})
      </Typography>
      <List dense disablePadding sx={{ maxHeight: 220, overflow: "auto" }}>
        {section.items.map((item) => (
          <ListItem key={item.rms} disableGutters>
            <ListItemText
              primary={`${item.rms} — ${item.summary || "(no summary)"}`}
              secondary={detail(item) || undefined}
            />
          </ListItem>
        ))}
      </List>
      {section.count > section.items.length && (
        <Typography variant="caption" color="text.secondary">
          …and {section.count - section.items.length} more
        </Typography>
      )}
    </Box>
  );
}

/**
 * The preview of a requirements upload (the server's dry run): what would be added, changed,
 * archived (with the notes, flags and links kept on them) and restored. Nothing changes until
 * Import is pressed.
 */
export function ImportPreviewDialog({
  fileName,
  preview,
  applying,
  error,
  onCancel,
  onApply,
}: {
  fileName: string;
  preview: Preview;
  applying: boolean;
  error: string | null;
  onCancel: () => void;
  onApply: () => void;
}) {
  const nothing =
    preview.added.count +
      preview.changed.count +
      preview.archived.count +
      preview.restored.count ===
    0;
  return (
    <Dialog open onClose={applying ? undefined : onCancel} maxWidth="md" fullWidth>
      <DialogTitle>Import {fileName}?</DialogTitle>
      <DialogContent dividers>
        <Typography>
          {preview.added.count} added · {preview.changed.count} changed · {preview.unchanged}{" "}
          unchanged · {preview.restored.count} restored · {preview.archived.count} archived. Nothing
          changes until you press Import.
        </Typography>
        {nothing && (
          <Alert severity="info" sx={{ mt: 2 }}>
            The file holds the requirements the matrix already shows: importing it changes nothing.
          </Alert>
        )}
        {preview.archived.count > 0 && (
          <Alert severity="warning" sx={{ mt: 2 }}>
            {preview.archived.count} requirement{preview.archived.count === 1 ? " is" : "s are"} not
            in this file. They will be archived: hidden from the matrix, with their notes, No
            Automation flags, linked tests and edit history kept, and back when a later import or
            sync names them again.
          </Alert>
        )}
        <Changes title="Archived" section={preview.archived} detail={keptText} />
        <Changes title="Added" section={preview.added} detail={() => ""} />
        <Changes
          title="Changed"
          section={preview.changed}
          detail={(item) => `Changes: ${item.changes.join(", ")}`}
        />
        <Changes title="Restored" section={preview.restored} detail={keptText} />
        {error && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {error}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={onCancel} disabled={applying}>
          Cancel
        </Button>
        <Button variant="contained" onClick={onApply} disabled={applying}>
          {applying ? "Importing…" : "Import"}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
