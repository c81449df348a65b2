import {
  DH_ENV_TYPES,
  DH_GLOBAL_SCHEMAS,
  DH_PLATFORM_TYPES,
  DH_PLATFORMS,
  type DhEnvironmentOption,
  type DhPlatform,
} from "@assay/core";
import Button from "@mui/material/Button";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import TextField from "@mui/material/TextField";
import { SignInHint } from "../tags/SignInHint";
import type { DhSelection } from "./use-dh";

export const PLATFORM_LABELS: Record<DhPlatform, string> = {
  legacy: "Legacy",
  nextGen: "NextGen",
  sfdc: "SFDC",
  global: "Global",
};

/** The choices after a platform change (spec section 2: a platform change resets them). */
export function initialSelection(platform: DhPlatform = "legacy"): DhSelection {
  const firstType = DH_PLATFORM_TYPES[platform].find((t) => !t.disabled)?.type ?? "sql";
  return { platform, type: firstType, envType: "dev", env: "", schema: "", globalEnvType: "dev" };
}

/** Run Report can go once an environment (Global: a schema) is chosen. */
export function canRun(selection: DhSelection): boolean {
  return selection.platform === "global" ? selection.schema !== "" : selection.env !== "";
}

export function DhSelectors({
  selection,
  onChange,
  environments,
  busy,
  signedIn,
  onRun,
}: {
  selection: DhSelection;
  onChange: (next: DhSelection) => void;
  environments: DhEnvironmentOption[];
  /** Fetching: every selector and Run Report are disabled (spec section 2). */
  busy: boolean;
  signedIn: boolean;
  onRun: () => void;
}) {
  const global = selection.platform === "global";
  const set = (patch: Partial<DhSelection>) => onChange({ ...selection, ...patch });
  const field = { size: "small", disabled: busy, sx: { minWidth: 170 } } as const;
  return (
    <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: "wrap", alignItems: "center" }}>
      <TextField
        {...field}
        select
        label="Platform"
        value={selection.platform}
        onChange={(e) => onChange(initialSelection(e.target.value as DhPlatform))}
      >
        {DH_PLATFORMS.map((p) => (
          <MenuItem key={p} value={p}>
            {PLATFORM_LABELS[p]}
          </MenuItem>
        ))}
      </TextField>
      {!global && (
        <>
          <TextField
            {...field}
            select
            label="Type"
            value={selection.type}
            onChange={(e) => set({ type: e.target.value as DhSelection["type"], env: "" })}
          >
            {DH_PLATFORM_TYPES[selection.platform].map((t) => (
              <MenuItem key={t.type} value={t.type} disabled={t.disabled}>
                {t.type}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            {...field}
            select
            label="Environment Type"
            value={selection.envType}
            onChange={(e) => set({ envType: e.target.value as DhSelection["envType"], env: "" })}
          >
            {DH_ENV_TYPES.map((t) => (
              <MenuItem key={t} value={t}>
                {t}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            {...field}
            sx={{ minWidth: 260 }}
            select
            label="Environment"
            value={selection.env}
            onChange={(e) => set({ env: e.target.value })}
          >
            {environments.map((e) => (
              <MenuItem key={e.value} value={e.value} disabled={!e.active}>
                {e.alias}
              </MenuItem>
            ))}
          </TextField>
        </>
      )}
      {global && (
        <>
          <TextField
            {...field}
            select
            label="Global Schema"
            value={selection.schema}
            onChange={(e) => set({ schema: e.target.value as DhSelection["schema"] })}
          >
            {DH_GLOBAL_SCHEMAS.map((s) => (
              <MenuItem key={s} value={s}>
                {s}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            {...field}
            select
            label="Global Environment Type"
            value={selection.globalEnvType}
            onChange={(e) => set({ globalEnvType: e.target.value as DhSelection["envType"] })}
          >
            {DH_ENV_TYPES.map((t) => (
              <MenuItem key={t} value={t}>
                {t}
              </MenuItem>
            ))}
          </TextField>
        </>
      )}
      <SignInHint signedIn={signedIn}>
        <Button
          variant="contained"
          disabled={busy || !signedIn || !canRun(selection)}
          onClick={onRun}
        >
          Run Report
        </Button>
      </SignInHint>
    </Stack>
  );
}
