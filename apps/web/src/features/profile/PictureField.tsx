import { MAX_PICTURE_BYTES, PICTURE_TYPES } from "@assay/core";
import Button from "@mui/material/Button";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { useEffect, useMemo } from "react";
import { UserAvatar } from "./UserAvatar";

/** Why a chosen file cannot be a picture, or undefined when it can. */
export function pictureProblem(file: File): string | undefined {
  if (!(PICTURE_TYPES as readonly string[]).includes(file.type)) {
    return "The picture must be a PNG, JPEG, GIF or WebP image.";
  }
  if (file.size > MAX_PICTURE_BYTES) {
    return `The picture must be at most ${MAX_PICTURE_BYTES / 1024} KB.`;
  }
  return undefined;
}

/**
 * The picture of the Profile dialog: the current one (or initials), a chosen one previewed
 * before saving, and Upload / Remove. Uploads go to Assay's own store, so the page shows only
 * images from its own origin.
 */
export function PictureField({
  name,
  email,
  current,
  chosen,
  removed,
  onChoose,
  onRemove,
  onProblem,
}: {
  name: string;
  email: string;
  current: string | null;
  chosen: File | undefined;
  removed: boolean;
  onChoose: (file: File) => void;
  onRemove: () => void;
  onProblem: (message: string) => void;
}) {
  const preview = useMemo(() => (chosen ? URL.createObjectURL(chosen) : undefined), [chosen]);
  useEffect(
    () => () => {
      if (preview) URL.revokeObjectURL(preview);
    },
    [preview],
  );
  const shown = preview ?? (removed ? null : current);

  return (
    <Stack direction="row" spacing={2} sx={{ alignItems: "center" }}>
      <UserAvatar name={name} email={email} picture={shown} size={56} />
      <Stack spacing={0.5}>
        <Stack direction="row" spacing={1}>
          <Button variant="outlined" component="label">
            Upload picture
            <input
              hidden
              type="file"
              accept={PICTURE_TYPES.join(",")}
              aria-label="Picture file"
              onChange={(event) => {
                const file = event.target.files?.[0];
                event.target.value = "";
                if (!file) return;
                const problem = pictureProblem(file);
                if (problem) onProblem(problem);
                else onChoose(file);
              }}
            />
          </Button>
          <Button color="inherit" disabled={shown === null} onClick={onRemove}>
            Remove
          </Button>
        </Stack>
        <Typography variant="caption" sx={{ color: "text.secondary" }}>
          PNG, JPEG, GIF or WebP, up to {MAX_PICTURE_BYTES / 1024} KB
        </Typography>
      </Stack>
    </Stack>
  );
}
