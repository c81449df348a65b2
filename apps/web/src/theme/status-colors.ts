/**
 * The one status vocabulary of every screen (STYLE.md "How the screens should feel"). Colour is
 * never used alone: whoever paints a status also shows its word or icon.
 */
export const STATUS_COLORS = {
  passed: "#1a7f37",
  failed: "#d1242f",
  skipped: "#6e7781",
  unstable: "#bf8700",
  running: "#0969da",
} as const;

export type TestStatus = keyof typeof STATUS_COLORS;
export type StatusPalette = Record<TestStatus, string>;
