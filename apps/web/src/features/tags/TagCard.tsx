import { UNSTABLE_TAG, type TaggedTest } from "@assay/core";
import CloseIcon from "@mui/icons-material/Close";
import DeleteOutline from "@mui/icons-material/DeleteOutline";
import Box from "@mui/material/Box";
import IconButton from "@mui/material/IconButton";
import Link from "@mui/material/Link";
import Paper from "@mui/material/Paper";
import Typography from "@mui/material/Typography";
import { Link as RouterLink } from "react-router";
import { SignInHint } from "./SignInHint";
import type { TagView } from "./use-tags";

/** A card's test list scrolls past this height, so one big tag does not stretch its row. */
const TEST_LIST_MAX_HEIGHT = 320;

interface TagCardProps {
  tag: TagView;
  signedIn: boolean;
  /** The link being removed, whose button waits. */
  removingId: number | null;
  onDelete: (tag: TagView) => void;
  onRemoveTest: (tag: TagView, test: TaggedTest) => void;
}

const countLabel = (n: number) => (n === 1 ? "1 test" : `${n} tests`);

/** One dynamic tag: its name, a delete button, and its tests as TC{id} and name. */
export function TagCard({ tag, signedIn, removingId, onDelete, onRemoveTest }: TagCardProps) {
  const protectedTag = tag.name === UNSTABLE_TAG;
  return (
    <Paper
      component="section"
      variant="outlined"
      aria-label={`Tag ${tag.name}`}
      sx={{ display: "flex", flexDirection: "column", minWidth: 0 }}
    >
      <Box
        sx={{
          display: "flex",
          alignItems: "center",
          gap: 1,
          px: 1.5,
          py: 0.75,
          borderBottom: 1,
          borderColor: "divider",
        }}
      >
        <Typography variant="h3" component="h2" noWrap title={tag.name} sx={{ flexGrow: 1 }}>
          {tag.name}
        </Typography>
        <Typography variant="caption" color="text.secondary" sx={{ whiteSpace: "nowrap" }}>
          {countLabel(tag.tests.length)}
        </Typography>
        <SignInHint
          signedIn={signedIn}
          title={
            protectedTag
              ? `'${UNSTABLE_TAG}' marks tests as unstable and cannot be deleted`
              : "Delete tag"
          }
        >
          <IconButton
            aria-label={`Delete tag ${tag.name}`}
            disabled={!signedIn || protectedTag}
            onClick={() => onDelete(tag)}
          >
            <DeleteOutline fontSize="small" />
          </IconButton>
        </SignInHint>
      </Box>
      {tag.tests.length === 0 ? (
        <Typography variant="body2" color="text.secondary" sx={{ px: 1.5, py: 1.25 }}>
          No tests carry this tag.
        </Typography>
      ) : (
        <Box
          component="ul"
          aria-label={`Tests tagged ${tag.name}`}
          sx={{ listStyle: "none", m: 0, p: 0, overflowY: "auto", maxHeight: TEST_LIST_MAX_HEIGHT }}
        >
          {tag.tests.map((test) => (
            <Box
              component="li"
              key={test.taggedTestId}
              sx={{
                display: "flex",
                alignItems: "flex-start",
                gap: 1,
                pl: 1.5,
                pr: 0.5,
                py: 0.25,
                "&:not(:last-of-type)": { borderBottom: 1, borderColor: "divider" },
              }}
            >
              <Link
                component={RouterLink}
                to={`/history/${test.id}`}
                variant="body2"
                sx={{
                  fontVariantNumeric: "tabular-nums",
                  whiteSpace: "nowrap",
                  fontWeight: 500,
                  py: 0.25,
                }}
              >
                TC{test.id}
              </Link>
              <Typography
                variant="body2"
                sx={{ flexGrow: 1, minWidth: 0, overflowWrap: "anywhere", py: 0.25 }}
              >
                {test.name}
              </Typography>
              <SignInHint signedIn={signedIn} title="Remove from tag">
                <IconButton
                  aria-label={`Remove TC${test.id} from ${tag.name}`}
                  disabled={!signedIn || removingId === test.taggedTestId}
                  onClick={() => onRemoveTest(tag, test)}
                >
                  <CloseIcon sx={{ fontSize: 16 }} />
                </IconButton>
              </SignInHint>
            </Box>
          ))}
        </Box>
      )}
    </Paper>
  );
}
