import Dialog from "@mui/material/Dialog";
import { useEffect, useRef, useState, type ReactNode } from "react";
import { isOpeningRead } from "./opening-read";

export interface ResultsDialogFrameProps {
  open?: boolean;
  onClose: () => void;
  /** The id of the dialog's title. */
  labelledBy: string;
  children: ReactNode;
}

/**
 * A full-screen results dialog. Opened with the page (its URL opened cold), it is the page's
 * first screen, which the server renders (first-screen.tsx) and the app then takes over: it
 * renders in place rather than in a portal (a portal renders nothing on the server) and does not
 * fade in. In place, it is the only child of its container, so the modal hides nothing from
 * assistive technology (its aria-modal marks the page behind as inert instead) and locks no
 * scrolling: the page's own is locked here, so that scrolling past the list's end does not move
 * the run list behind.
 */
export function ResultsDialogFrame({
  open = true,
  onClose,
  labelledBy,
  children,
}: ResultsDialogFrameProps) {
  // Chosen once per mount: moving between a portal and the page would mount the dialog again.
  const [inPlace] = useState(isOpeningRead);
  const place = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!inPlace || !open) return;
    const { style } = document.body;
    const overflow = style.overflow;
    style.overflow = "hidden";
    return () => {
      style.overflow = overflow;
    };
  }, [inPlace, open]);
  const dialog = (
    <Dialog
      fullScreen
      open={open}
      onClose={onClose}
      aria-labelledby={labelledBy}
      transitionDuration={{ enter: 120, exit: 80 }}
      disablePortal={inPlace}
      container={inPlace ? () => place.current : undefined}
      // The dialog takes focus on open (for Escape and the focus trap); it is no control.
      slotProps={{ paper: { sx: { outline: "none" } }, transition: { appear: !inPlace } }}
    >
      {children}
    </Dialog>
  );
  return inPlace ? (
    <div ref={place} style={{ display: "contents" }}>
      {dialog}
    </div>
  ) : (
    dialog
  );
}
