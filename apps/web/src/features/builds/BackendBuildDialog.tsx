import {
  BACKEND_RUN_TYPES,
  BackendBuildSchema,
  BRANCH_MAX_LENGTH,
  DEFAULT_BRANCH,
  DEFAULT_PARALLEL_RUNNERS,
  DEFAULT_RUN_TYPE,
  HOST_MAX_LENGTH,
  type BackendBuildInput,
  type BackendRunType,
  type BuildTemplate,
  type Catalog,
} from "@assay/core";
import Box from "@mui/material/Box";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import { LimitedTextField } from "../../components/fields/LimitedTextField";
import { useState } from "react";
import { SaveAsScheduleDialog } from "./SaveAsScheduleDialog";
import { issuesOf } from "./build-issues";
import {
  BuildDialogFrame,
  ParallelRunnersField,
  SCHEDULE_BUILD_SUBMIT,
  type BuildDialogProps,
} from "./BuildDialogFrame";
import { FRONTEND_RUN_TYPE_LABEL, knownTags, subsetLabel } from "./frontend-build-form";
import { RunTypeRadios } from "./RunTypeRadios";
import { TagPicker } from "./TagPicker";
import { buildsPath, useCreateBuild } from "./use-builds";

interface BackendForm {
  runType: BackendRunType;
  parallelRunners: number;
  tags: string[];
  subSet: string;
  env: string;
  branch: string;
}

function initialBackendForm(handedTags: readonly string[]): BackendForm {
  return {
    runType: handedTags.length > 0 ? "by_tags" : DEFAULT_RUN_TYPE,
    parallelRunners: DEFAULT_PARALLEL_RUNNERS,
    tags: [...handedTags],
    subSet: "",
    env: "",
    branch: DEFAULT_BRANCH,
  };
}

/** The form a saved backend build (a schedule's template) was made from: backendPayload's inverse. */
export function backendFormOf(payload: Record<string, unknown>): BackendForm {
  const str = (value: unknown) => (typeof value === "string" ? value : "");
  const base = initialBackendForm([]);
  const runType = (BACKEND_RUN_TYPES as readonly string[]).includes(str(payload.mode))
    ? (payload.mode as BackendRunType)
    : base.runType;
  return {
    runType,
    parallelRunners:
      typeof payload.parallel_runners === "number"
        ? payload.parallel_runners
        : base.parallelRunners,
    tags:
      runType === "by_tags"
        ? str(payload.tag)
            .split(",")
            .filter((tag) => tag !== "")
        : [],
    subSet: str(payload.subSet),
    env: str(payload.env),
    branch: str(payload.branch) || base.branch,
  };
}

export function backendPayload(form: BackendForm, catalog: Catalog): BackendBuildInput {
  const payload: BackendBuildInput = {
    mode: form.runType,
    parallel_runners: form.parallelRunners,
    branch: form.branch.trim(),
    env: form.env.trim(),
  };
  if (form.runType === "by_tags" && form.tags.length > 0) payload.tag = form.tags.join(",");
  const subset = catalog.testSubsets.api.find((s) => s.name === form.subSet);
  if (form.runType === "by_sub_set" && subset) {
    payload.subSet = subset.name;
    payload.tag = subset.testIds.map((id) => `TC${id}`).join(",");
  }
  return payload;
}

/**
 * The Backend Create Build dialog (spec sections 2 and 5): env and branch are required, a tag for
 * By Test Tags and a sub set for By Sub Set. A refused form "silently does not submit": no
 * request is sent, but each field at fault says what is wrong, as the other dialogs do.
 */
export function BackendBuildDialog({
  catalog,
  handedTags,
  onClose,
  onCreated,
  template,
  onTemplate,
}: BuildDialogProps) {
  const create = useCreateBuild();
  const [form, setForm] = useState<BackendForm>(() =>
    template ? backendFormOf(template.payload) : initialBackendForm(handedTags),
  );
  const [invalid, setInvalid] = useState<Record<string, string>>({});
  const set = (change: Partial<BackendForm>) => setForm((current) => ({ ...current, ...change }));

  const [schedule, setSchedule] = useState<BuildTemplate | null>(null);

  /** The payload when the dialog's rules accept it; else the fields at fault say why. */
  const checked = () => {
    const payload = backendPayload(form, catalog);
    const { byField } = issuesOf(BackendBuildSchema.safeParse(payload));
    setInvalid(byField);
    return Object.keys(byField).length > 0 ? undefined : payload;
  };
  const saveAsSchedule = () => {
    const payload = checked();
    if (payload) setSchedule({ family: "backend", region: "US", payload: { ...payload } });
  };
  const submit = () => {
    const payload = checked();
    if (!payload) return;
    if (onTemplate) return onTemplate({ family: "backend", region: "US", payload: { ...payload } });
    create.mutate(
      { path: buildsPath("backend", "US"), payload },
      { onSuccess: ({ build }) => onCreated(build) },
    );
  };

  // Beside the frame, not in its form: a submit inside a portal still bubbles up React's tree.
  return (
    <>
      {schedule && <SaveAsScheduleDialog template={schedule} onClose={() => setSchedule(null)} />}
      <BuildDialogFrame
        title={onTemplate ? "Schedule's build: Backend" : "Create Backend Build"}
        submitLabel={onTemplate ? SCHEDULE_BUILD_SUBMIT : undefined}
        messages={create.isError ? [create.error.message] : []}
        pending={create.isPending}
        onSubmit={submit}
        onClose={onClose}
        onSaveAsSchedule={onTemplate ? undefined : saveAsSchedule}
      >
        <RunTypeRadios
          id="backend-run-type"
          types={BACKEND_RUN_TYPES}
          labelOf={(type) => FRONTEND_RUN_TYPE_LABEL[type]}
          value={form.runType}
          onChange={(runType) => set({ runType })}
        />
        <Box sx={{ display: "grid", gridTemplateColumns: "160px 1fr 1fr", gap: 2 }}>
          <ParallelRunnersField
            value={form.parallelRunners}
            onChange={(parallelRunners) => set({ parallelRunners })}
          />
          <LimitedTextField
            label="Env"
            what="env"
            maxChars={HOST_MAX_LENGTH}
            required
            value={form.env}
            onChange={(event) => set({ env: event.target.value })}
            error={invalid.env !== undefined}
            helperText={invalid.env ?? "A name such as dev1, or the API's https URL"}
            placeholder="dev1 or https://api.example.com"
          />
          <LimitedTextField
            label="API branch"
            what="API branch"
            maxChars={BRANCH_MAX_LENGTH}
            required
            value={form.branch}
            onChange={(event) => set({ branch: event.target.value })}
            error={invalid.branch !== undefined}
            helperText={invalid.branch ?? " "}
          />
        </Box>
        {form.runType === "by_tags" && (
          <TagPicker
            known={knownTags(catalog, "api")}
            value={form.tags}
            onChange={(tags) => set({ tags })}
            error={invalid.tag}
          />
        )}
        {form.runType === "by_sub_set" && (
          <TextField
            select
            label="Sub Set"
            value={form.subSet}
            onChange={(event) => set({ subSet: event.target.value })}
            error={invalid.subSet !== undefined}
            helperText={invalid.subSet}
          >
            {catalog.testSubsets.api.map((subset) => (
              <MenuItem key={subset.name} value={subset.name}>
                {subsetLabel(subset)}
              </MenuItem>
            ))}
          </TextField>
        )}
      </BuildDialogFrame>
    </>
  );
}
