import Close from "@mui/icons-material/Close";
import LinkIcon from "@mui/icons-material/Link";
import AppBar from "@mui/material/AppBar";
import Box from "@mui/material/Box";
import IconButton from "@mui/material/IconButton";
import Snackbar from "@mui/material/Snackbar";
import Toolbar from "@mui/material/Toolbar";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { memo, useState } from "react";
import { useLocation } from "react-router";
import { ComparePreviousButton } from "../compare/ComparePreviousButton";
import { copyText } from "../copy-text";

/** A run's facts as its bar shows them: each once (a run is often named for its creation time). */
export const joinFacts = (facts: readonly (string | null | undefined)[]) =>
  [...new Set(facts.filter(Boolean))].join(" · ");

/**
 * The bar of a run's results dialog (Frontend and Backend): close, the run key as title with a
 * copy-link button, the run's facts.
 */
export const ResultsHeader = memo(function ResultsHeader({
  runKey,
  titleId,
  caption,
  onClose,
}: {
  runKey: string;
  /** The title's id, which the dialog is labelled by. */
  titleId: string;
  /** The run's facts (joinFacts); undefined while the run loads. */
  caption: string | undefined;
  onClose: () => void;
}) {
  const [message, setMessage] = useState<string | null>(null);
  const location = useLocation();
  const copyLink = async () => {
    // The router's location: the filters in the URL make the link open this very view.
    const link = new URL(`${location.pathname}${location.search}`, window.location.origin).href;
    const copied = await copyText(link);
    setMessage(copied ? "Link copied" : "The browser refused to copy the link.");
  };
  return (
    // Not a <header>: the page's banner is the app header, not the dialog's bar.
    <AppBar component="div" position="static" sx={{ borderBottom: 1, borderColor: "divider" }}>
      <Toolbar variant="dense" sx={{ gap: 1 }}>
        <Tooltip title="Close (Esc)">
          <IconButton edge="start" onClick={onClose} aria-label="Close">
            <Close />
          </IconButton>
        </Tooltip>
        <Typography
          id={titleId}
          component="h2"
          variant="h2"
          noWrap
          sx={{ fontFamily: "monospace" }}
        >
          {runKey}
        </Typography>
        <Tooltip title="Copy a link to this view">
          <IconButton onClick={() => void copyLink()} aria-label="Copy link">
            <LinkIcon />
          </IconButton>
        </Tooltip>
        <Box sx={{ flex: 1, minWidth: 0 }}>
          {caption && (
            <Typography color="text.secondary" noWrap title={caption}>
              {caption}
            </Typography>
          )}
        </Box>
        <ComparePreviousButton runKey={runKey} />
      </Toolbar>
      <Snackbar
        open={message !== null}
        message={message}
        autoHideDuration={3000}
        onClose={() => setMessage(null)}
        anchorOrigin={{ vertical: "bottom", horizontal: "center" }}
      />
    </AppBar>
  );
});
