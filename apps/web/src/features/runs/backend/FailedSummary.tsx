import { formatFailedIds, formatFailedSummary, type FailedTagGroup } from "@assay/core";
import ContentCopy from "@mui/icons-material/ContentCopy";
import PlaylistPlay from "@mui/icons-material/PlaylistPlay";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import IconButton from "@mui/material/IconButton";
import Snackbar from "@mui/material/Snackbar";
import Tooltip from "@mui/material/Tooltip";
import Typography from "@mui/material/Typography";
import { useState } from "react";
import { useNavigate } from "react-router";
import { SIGN_IN_HINT, useSignedIn } from "../../../api/use-signed-in";
import { SignedInButton } from "../../../components/SignedInButton";
import { buildsHref } from "../../../components/builds-url";
import { TestsDefectButton } from "../../triage/TestsDefectButton";

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

/** The per-group hand-off to New Build; signed out it is disabled with 'Please sign in'. */
function NewBuildIcon({ label, onClick }: { label: string; onClick: () => void }) {
  const signedIn = useSignedIn();
  return (
    <Tooltip title={signedIn ? label : SIGN_IN_HINT}>
      <span>
        <IconButton aria-label={label} onClick={onClick} disabled={!signedIn} sx={{ p: 0.25 }}>
          <PlaylistPlay sx={{ fontSize: 16 }} />
        </IconButton>
      </span>
    </Tooltip>
  );
}

/**
 * The Failed Summary box's content: failed tests per major tag, most first, with Copy Summary
 * and a copy of each group's failed ids.
 */
export function FailedSummary({
  groups,
  buildTab,
  runKey,
}: {
  groups: readonly FailedTagGroup[] | undefined;
  /** The Builds tab whose New Build the failed ids are handed to. */
  buildTab: "frontend" | "backend";
  /** The run: its failures take a defect type from here (absent: no such action). */
  runKey?: string;
}) {
  const { copy, message, clear } = useCopy();
  const navigate = useNavigate();
  // Hand-off: New Build opens By Test Tags with these ids filled in (spec section 4).
  const newBuildWith = (ids: readonly number[]) =>
    void navigate(buildsHref({ tab: buildTab, newBuild: true, tags: ids.map((id) => `TC${id}`) }));

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
            <NewBuildIcon
              label={`New Build with the failed ids of ${group.tag}`}
              onClick={() => newBuildWith(group.testIds)}
            />
            {runKey && (
              <TestsDefectButton
                icon
                runKey={runKey}
                tests={group.testIds}
                what={`the failures of ${group.tag}`}
              />
            )}
          </Box>
        ))}
      </Box>
      <Box sx={{ display: "flex", flexWrap: "wrap", gap: 0.5 }}>
        <Button
          startIcon={<ContentCopy />}
          onClick={() => copy(formatFailedSummary(groups), "the summary")}
        >
          Copy Summary
        </Button>
        <SignedInButton
          startIcon={<PlaylistPlay />}
          tooltip="New Build of every failed test, By Test Tags"
          onClick={() => newBuildWith(groups.flatMap((group) => group.testIds))}
        >
          New Build with failed ids
        </SignedInButton>
        {runKey && (
          <TestsDefectButton
            runKey={runKey}
            tests={groups.flatMap((group) => group.testIds)}
            what="all the run's failures"
          />
        )}
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
