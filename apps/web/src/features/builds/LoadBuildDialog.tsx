import {
  BRANCH_MAX_LENGTH,
  BUILD_TEXT_MAX_LENGTH,
  HOST_MAX_LENGTH,
  LOAD_RUN_TYPES,
  LoadBuildSchema,
  OTHER_OPTION_VALUE,
  type LoadRunType,
} from "@assay/core";
import Box from "@mui/material/Box";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import { LimitedTextField } from "../../components/fields/LimitedTextField";
import { useState } from "react";
import { issuesOf, NO_ISSUES, type Issues } from "./build-issues";
import { BuildDialogFrame, SCHEDULE_BUILD_SUBMIT, type BuildDialogProps } from "./BuildDialogFrame";
import {
  initialLoadForm,
  loadFormOf,
  loadPayload,
  withLoadRunType,
  withTeam,
  type LoadForm,
} from "./load-build-form";
import { RunTypeRadios } from "./RunTypeRadios";
import { buildsPath, useCreateBuild } from "./use-builds";

const LOAD_RUN_TYPE_LABEL: Record<LoadRunType, string> = {
  general: "General",
  custom_db: "Custom DB",
};

/**
 * The Load Create Build dialog (spec sections 2, 4 and 5): General or Custom DB, and the seven
 * messages of core's LoadBuildSchema in an error alert.
 */
export function LoadBuildDialog({
  catalog,
  onClose,
  onCreated,
  template,
  onTemplate,
}: Omit<BuildDialogProps, "handedTags">) {
  const create = useCreateBuild();
  const [form, setForm] = useState<LoadForm>(() =>
    template ? loadFormOf(catalog, template.payload) : initialLoadForm(catalog),
  );
  const [issues, setIssues] = useState<Issues>(NO_ISSUES);
  const set = (change: Partial<LoadForm>) => setForm((current) => ({ ...current, ...change }));
  const customDb = form.runType === "custom_db";
  const team = catalog.loadTeams.find((t) => t.name === form.team);

  const submit = () => {
    const payload = loadPayload(form, catalog);
    const found = issuesOf(LoadBuildSchema.safeParse(payload));
    setIssues(found);
    if (found.messages.length > 0) return;
    if (onTemplate) return onTemplate({ family: "load", region: "US", payload: { ...payload } });
    create.mutate(
      { path: buildsPath("load", "US"), payload },
      { onSuccess: ({ build }) => onCreated(build) },
    );
  };

  const { byField } = issues;
  const select = (
    label: string,
    field: keyof LoadForm,
    options: readonly { value: string; label: string }[],
    onChange: (value: string) => void,
    disabled = false,
  ) => (
    <TextField
      select
      label={label}
      value={form[field]}
      disabled={disabled}
      onChange={(event) => onChange(event.target.value)}
    >
      {options.map((option) => (
        <MenuItem key={option.value} value={option.value}>
          {option.label}
        </MenuItem>
      ))}
    </TextField>
  );
  const text = (label: string, field: keyof LoadForm, issue: string) => (
    <TextField
      label={label}
      value={form[field]}
      onChange={(event) => set({ [field]: event.target.value })}
      error={byField[issue] !== undefined}
    />
  );
  // Free text has a limit, counted under the field as it is typed.
  const limited = (
    label: string,
    what: string,
    field: "customHost" | "branch" | "query",
    max: number,
  ) => (
    <LimitedTextField
      label={label}
      what={what}
      maxChars={max}
      value={form[field]}
      multiline={field === "query"}
      minRows={field === "query" ? 3 : undefined}
      onChange={(event) => set({ [field]: event.target.value })}
      error={byField[field === "customHost" ? "host" : field] !== undefined}
    />
  );

  return (
    <BuildDialogFrame
      title={onTemplate ? "Schedule's build: Load" : "Create Load Build"}
      submitLabel={onTemplate ? SCHEDULE_BUILD_SUBMIT : undefined}
      messages={create.isError ? [...issues.messages, create.error.message] : issues.messages}
      pending={create.isPending}
      onSubmit={submit}
      onClose={onClose}
    >
      <RunTypeRadios
        id="load-run-type"
        types={LOAD_RUN_TYPES}
        labelOf={(type) => LOAD_RUN_TYPE_LABEL[type]}
        value={form.runType}
        onChange={(runType) => setForm(withLoadRunType(form, catalog, runType))}
      />
      <Box sx={{ display: "grid", gridTemplateColumns: "repeat(3, 1fr)", gap: 2 }}>
        {select("Env", "env", catalog.loadEnvs, (env) => set({ env }), customDb)}
        {form.env === OTHER_OPTION_VALUE ? (
          limited("Custom host", "custom host", "customHost", HOST_MAX_LENGTH)
        ) : (
          <span />
        )}
        {limited("Load branch", "load branch", "branch", BRANCH_MAX_LENGTH)}
        {select(
          "Team",
          "team",
          catalog.loadTeams.map((t) => ({ value: t.name, label: t.name })),
          (name) => setForm(withTeam(form, catalog, name)),
          customDb,
        )}
        {select(
          "Feature",
          "testFile",
          team?.testFiles ?? [],
          (testFile) => set({ testFile }),
          customDb,
        )}
        {select("Load Location", "location", catalog.loadLocations, (location) =>
          set({ location }),
        )}
        {text("No. of Users", "users", "users")}
        {text("Duration", "duration", "runTime")}
        {text("Spawn Rate (user/sec)", "spawnRate", "spawnRate")}
      </Box>
      {customDb && limited("DB Query", "DB query", "query", BUILD_TEXT_MAX_LENGTH)}
    </BuildDialogFrame>
  );
}
