import Login from "@mui/icons-material/Login";
import Logout from "@mui/icons-material/Logout";
import PersonOutline from "@mui/icons-material/PersonOutline";
import Button from "@mui/material/Button";
import IconButton from "@mui/material/IconButton";
import ListItemIcon from "@mui/material/ListItemIcon";
import Menu from "@mui/material/Menu";
import MenuItem from "@mui/material/MenuItem";
import Skeleton from "@mui/material/Skeleton";
import Stack from "@mui/material/Stack";
import Typography from "@mui/material/Typography";
import { lazy, Suspense, useState } from "react";
import { useLocation } from "react-router";
import { signInHref, signOut } from "../api/sign-in";
import { useMe } from "../api/use-me";
import { UserAvatar } from "../features/profile/UserAvatar";

// The dialog's code is fetched when someone first opens it.
const ProfileDialog = lazy(async () => ({
  default: (await import("../features/profile/ProfileDialog")).ProfileDialog,
}));

/**
 * The right-hand side of the header (spec section 2, "Page chrome"): a Sign in button when
 * signed out; when signed in, a greeting, the user's avatar and a menu with Profile and Sign out.
 */
export function HeaderActions() {
  const { me, pending } = useMe();
  const location = useLocation();
  const [menuAnchor, setMenuAnchor] = useState<HTMLElement | null>(null);
  const [profileOpen, setProfileOpen] = useState(false);
  const [signOutFailed, setSignOutFailed] = useState(false);

  if (pending)
    return (
      <Skeleton variant="circular" width={28} height={28} aria-label="Loading who is signed in" />
    );
  if (!me) {
    return (
      <Button variant="outlined" startIcon={<Login />} href={signInHref(location)}>
        Sign in
      </Button>
    );
  }

  const startSignOut = () => {
    setMenuAnchor(null);
    signOut().catch(() => setSignOutFailed(true));
  };

  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: "center", minWidth: 0 }}>
      <Typography noWrap sx={{ color: "text.secondary", maxWidth: 240 }}>
        Hello, {me.name}
      </Typography>
      <IconButton
        aria-label="Account menu"
        aria-haspopup="menu"
        aria-expanded={menuAnchor ? "true" : undefined}
        onClick={(event) => setMenuAnchor(event.currentTarget)}
      >
        <UserAvatar name={me.name} email={me.email} picture={me.picture} />
      </IconButton>
      <Menu
        anchorEl={menuAnchor}
        open={menuAnchor !== null}
        onClose={() => setMenuAnchor(null)}
        anchorOrigin={{ vertical: "bottom", horizontal: "right" }}
        transformOrigin={{ vertical: "top", horizontal: "right" }}
      >
        <MenuItem
          onClick={() => {
            setMenuAnchor(null);
            setProfileOpen(true);
          }}
        >
          <ListItemIcon>
            <PersonOutline fontSize="small" />
          </ListItemIcon>
          Profile
        </MenuItem>
        <MenuItem onClick={startSignOut}>
          <ListItemIcon>
            <Logout fontSize="small" />
          </ListItemIcon>
          Sign out
        </MenuItem>
      </Menu>
      {signOutFailed && (
        <Typography role="alert" sx={{ color: "error.main" }}>
          Sign-out failed; try again.
        </Typography>
      )}
      {profileOpen && (
        <Suspense fallback={null}>
          <ProfileDialog me={me} onClose={() => setProfileOpen(false)} />
        </Suspense>
      )}
    </Stack>
  );
}
