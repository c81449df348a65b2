import { formatFailedIds, formatFailedSummary, type FailedTagGroup } from "@assay/core";
import ContentCopy from "@mui/icons-material/ContentCopy";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import IconButton from "@mui/material/IconButton";
import Snackbar from "@mui/material/Snackbar";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { useState } from "react";

/** Copies text and says how it went; the clipboard is refused on plain-http origins. */
function useCopy() {
  const [message, setMessage] = useState<string | null>(null);
  const copy = (text: string, what: string) => {
    const clipboard = navigator.clipboard as Clipboard | undefined;
    if (!clipboard) {
      setMessage("This browser gives the page no clipboard (an https origin is needed).");
      return;
    }
    clipboard.writeText(text).then(
      () => setMessage(`Copied ${what}`),
      () => setMessage("The browser refused to copy to the clipboard."),
    );
  };
  return { copy, message, clear: () => setMessage(null) };
}

/**
 * The Failed Summary box's content: failed tests per major tag, most first, with Copy Summary
 * and a copy of each group's failed ids.
 */
export function FailedSummary({ groups }: { groups: readonly FailedTagGroup[] | undefined }) {
  const { copy, message, clear } = useCopy();

  if (groups === undefined) {
    return <Typography color="text.secondary">Loading the major tags…</Typography>;
  }
  if (groups.length === 0) {
    return <Typography color="text.secondary">No failures.</Typography>;
  }
  return (
    <>
      <Box
        component="ul"
        sx={{
          m: 0,
          p: 0,
          listStyle: "none",
          // Every group shows, the list wraps onto more rows: its counts add up to Failed.
          display: "grid",
          gridTemplateColumns: "repeat(auto-fill, minmax(180px, 1fr))",
          columnGap: 3,
        }}
      >
        {groups.map((group) => (
          <Box
            component="li"
            key={group.tag}
            sx={{ display: "flex", alignItems: "center", gap: 1, minHeight: 26 }}
          >
            <Typography sx={{ flex: 1, minWidth: 0 }} noWrap>
              {group.tag}
            </Typography>
            <Typography sx={{ fontVariantNumeric: "tabular-nums", fontWeight: 600 }}>
              {group.count.toLocaleString("en-US")}
            </Typography>
            <Tooltip title={`Copy the failed ids of ${group.tag}`}>
              <IconButton
                aria-label={`Copy the failed ids of ${group.tag}`}
                onClick={() => copy(formatFailedIds(group), `the failed ids of ${group.tag}`)}
                sx={{ p: 0.25 }}
              >
                <ContentCopy sx={{ fontSize: 14 }} />
              </IconButton>
            </Tooltip>
          </Box>
        ))}
      </Box>
      <Box>
        <Button
          startIcon={<ContentCopy />}
          onClick={() => copy(formatFailedSummary(groups), "the summary")}
        >
          Copy Summary
        </Button>
      </Box>
      <Snackbar
        open={message !== null}
        message={message}
        autoHideDuration={3000}
        onClose={clear}
        anchorOrigin={{ vertical: "bottom", horizontal: "center" }}
      />
    </>
  );
}
