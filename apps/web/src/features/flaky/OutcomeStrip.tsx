import Box from "@mui/material/Box";
import { STATUS_COLORS } from "../../theme/status-colors";

const LOOK = {
  p: { mark: "✓", word: "passed", colour: STATUS_COLORS.passed },
  f: { mark: "✗", word: "failed", colour: STATUS_COLORS.failed },
  r: { mark: "↻", word: "passed on retry", colour: STATUS_COLORS.unstable },
} as const;

/**
 * A window of results as small marked squares, oldest first: ✓ passed, ✗ failed, ↻ passed on a
 * retry (a mark with each colour: never colour alone). `titles` names each square's run.
 */
export function OutcomeStrip({ outcomes, titles }: { outcomes: string; titles?: string[] }) {
  const words = [...outcomes].map((letter) => LOOK[letter as keyof typeof LOOK]?.word ?? letter);
  return (
    <Box
      role="img"
      aria-label={`Last ${outcomes.length} results, oldest first: ${words.join(", ")}`}
      sx={{ display: "flex", gap: "2px", flexWrap: "wrap", maxWidth: 31 * 12 }}
    >
      {[...outcomes].map((letter, i) => {
        const look = LOOK[letter as keyof typeof LOOK] ?? LOOK.p;
        return (
          <Box
            key={i}
            title={titles?.[i] ? `${titles[i]}: ${look.word}` : look.word}
            sx={{
              width: 10,
              height: 14,
              borderRadius: "2px",
              bgcolor: look.colour,
              color: "#fff",
              fontSize: 9,
              lineHeight: "14px",
              textAlign: "center",
              userSelect: "none",
            }}
          >
            {look.mark}
          </Box>
        );
      })}
    </Box>
  );
}
