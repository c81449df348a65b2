import { createTheme } from "@mui/material/styles";
import { STATUS_COLORS, type StatusPalette } from "./status-colors";

declare module "@mui/material/styles" {
  interface Palette {
    status: StatusPalette;
  }
  interface PaletteOptions {
    status?: StatusPalette;
  }
}

// System fonts: nothing is fetched from a font CDN, which a self-hosted install may not reach.
const FONT_STACK = [
  "-apple-system",
  "BlinkMacSystemFont",
  '"Segoe UI"',
  '"Noto Sans"',
  "Helvetica",
  "Arial",
  "sans-serif",
].join(",");

/**
 * Dense and calm: small controls, thin borders instead of shadows, neutral greys, so that the
 * status colours are the loudest thing on a screen of results.
 */
export const theme = createTheme({
  palette: {
    mode: "light",
    primary: { main: "#0969da" },
    error: { main: STATUS_COLORS.failed },
    success: { main: STATUS_COLORS.passed },
    warning: { main: STATUS_COLORS.unstable },
    background: { default: "#f6f8fa", paper: "#ffffff" },
    text: { primary: "#1f2328", secondary: "#59636e" },
    divider: "#d1d9e0",
    status: STATUS_COLORS,
  },
  shape: { borderRadius: 6 },
  typography: {
    fontFamily: FONT_STACK,
    fontSize: 13,
    h1: { fontSize: "1.125rem", fontWeight: 600, lineHeight: 1.4 },
    h2: { fontSize: "1rem", fontWeight: 600, lineHeight: 1.4 },
    h3: { fontSize: "0.875rem", fontWeight: 600, lineHeight: 1.4 },
    button: { textTransform: "none", fontWeight: 500 },
  },
  components: {
    MuiAppBar: { defaultProps: { elevation: 0, color: "inherit" } },
    MuiPaper: { defaultProps: { elevation: 0 } },
    MuiButton: { defaultProps: { size: "small", disableElevation: true } },
    MuiIconButton: { defaultProps: { size: "small" } },
    MuiTextField: { defaultProps: { size: "small" } },
    MuiFormControl: { defaultProps: { size: "small" } },
    MuiList: { defaultProps: { dense: true } },
    MuiListItemButton: { defaultProps: { dense: true } },
    MuiTable: { defaultProps: { size: "small" } },
    MuiTableCell: {
      // Numbers line up in columns only with tabular figures.
      styleOverrides: { root: { fontVariantNumeric: "tabular-nums" } },
    },
    MuiTooltip: { defaultProps: { arrow: true } },
  },
});
