import Avatar from "@mui/material/Avatar";
import type { SxProps, Theme } from "@mui/material/styles";

/** Up to two initials of a name ("Quinn Analyst" → "QA"), or the email's first letter. */
export function initialsOf(name: string, email = ""): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters = words.length > 1 ? [words[0], words[words.length - 1]] : words;
  const initials = letters.map((word) => [...(word ?? "")][0] ?? "").join("");
  return (initials || email.charAt(0) || "?").toUpperCase();
}

/** The user's picture, or their initials on the primary colour when they have none. */
export function UserAvatar({
  name,
  email,
  picture,
  size = 28,
  sx,
}: {
  name: string;
  email?: string;
  picture: string | null;
  size?: number;
  sx?: SxProps<Theme>;
}) {
  return (
    <Avatar
      src={picture ?? undefined}
      alt=""
      sx={[
        { width: size, height: size, fontSize: size * 0.42, bgcolor: "primary.main" },
        ...(Array.isArray(sx) ? sx : [sx]),
      ]}
    >
      {initialsOf(name, email)}
    </Avatar>
  );
}
