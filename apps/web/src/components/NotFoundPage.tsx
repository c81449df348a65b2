import Link from "@mui/material/Link";
import Typography from "@mui/material/Typography";
import { Link as RouterLink, useLocation } from "react-router";

export function NotFoundPage() {
  const { pathname } = useLocation();
  return (
    <>
      <Typography sx={{ mb: 1 }}>
        There is no screen at <code>{pathname}</code>.
      </Typography>
      <Link component={RouterLink} to="/dashboard">
        Go to the Dashboard
      </Link>
    </>
  );
}
