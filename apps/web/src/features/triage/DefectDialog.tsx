import Dialog from "@mui/material/Dialog";
import DialogContent from "@mui/material/DialogContent";
import DialogContentText from "@mui/material/DialogContentText";
import DialogTitle from "@mui/material/DialogTitle";
import type { ReactNode } from "react";
import { DefectForm } from "./DefectForm";

/** The defect form in a dialog: from a card's cause, or a Failed Summary line. */
export function DefectDialog({
  open,
  onClose,
  title,
  note,
  path,
  extra,
  submitLabel,
  children,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  /** What the decision will cover, in words. */
  note: ReactNode;
  path: string;
  extra?: Record<string, unknown>;
  submitLabel: string;
  /** Above the form: a choice of what it covers. */
  children?: ReactNode;
}) {
  return (
    <Dialog open={open} onClose={onClose} maxWidth="md" aria-labelledby="defect-dialog-title">
      <DialogTitle id="defect-dialog-title">{title}</DialogTitle>
      <DialogContent sx={{ display: "flex", flexDirection: "column", gap: 2, pt: 1 }}>
        <DialogContentText>{note}</DialogContentText>
        {children}
        {/* A new form per target: its answer is about what it was sent for. */}
        <DefectForm key={path} path={path} extra={extra} submitLabel={submitLabel} />
      </DialogContent>
    </Dialog>
  );
}
