import {
  FRONTEND_RUN_TYPES,
  frontendBuildSchema,
  BRANCH_MAX_LENGTH,
  HOST_MAX_LENGTH,
  OTHER_OPTION_VALUE,
  type BuildTemplate,
} from "@assay/core";
import Box from "@mui/material/Box";
import MenuItem from "@mui/material/MenuItem";
import Stack from "@mui/material/Stack";
import Switch from "@mui/material/Switch";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { LimitedTextField } from "../../components/fields/LimitedTextField";
import { useState } from "react";
import { useMe } from "../../api/use-me";
import { useTags } from "../tags/use-tags";
import { SaveAsScheduleDialog } from "./SaveAsScheduleDialog";
import { issuesOf, NO_ISSUES, type Issues } from "./build-issues";
import {
  BuildDialogFrame,
  ParallelRunnersField,
  SCHEDULE_BUILD_SUBMIT,
  type BuildDialogProps,
} from "./BuildDialogFrame";
import { RunTypeRadios } from "./RunTypeRadios";
import {
  FRONTEND_RUN_TYPE_LABEL,
  frontendFormOf,
  frontendPayload,
  initialFrontendForm,
  isStageRun,
  sitesOf,
  withPlatform,
  withRunType,
  type FrontendForm,
} from "./frontend-build-form";
import { FrontendRunTypeFields } from "./FrontendRunTypeFields";
import { buildsPath, useCreateBuild } from "./use-builds";

/**
 * The Frontend Create Build dialog (spec sections 2, 4, 5 and 9). What it sends is parsed with
 * core's frontendBuildSchema first, the server's own rules, and their messages are shown.
 */
export function FrontendBuildDialog({
  catalog,
  handedTags,
  listRegion = "US",
  onClose,
  onCreated,
  template,
  onTemplate,
}: BuildDialogProps) {
  const { me } = useMe();
  const tags = useTags();
  const create = useCreateBuild();
  const [form, setForm] = useState<FrontendForm>(() =>
    template
      ? frontendFormOf(catalog, template.payload, template.region)
      : initialFrontendForm(catalog, handedTags, listRegion),
  );
  // Opened from the China list, the dialog creates China builds only (NextGen, CHINA).
  const chinaList = listRegion === "CHINA";
  const [issues, setIssues] = useState<Issues>(NO_ISSUES);
  const set = (change: Partial<FrontendForm>) => setForm((current) => ({ ...current, ...change }));
  const stage = isStageRun(form.runType);

  const [schedule, setSchedule] = useState<BuildTemplate | null>(null);

  /** The payload when the dialog's rules accept it; else its messages are shown. */
  const checked = () => {
    const testsOf = (name: string) =>
      tags.data?.find((tag) => tag.name === name)?.tests.map((test) => test.id);
    const payload = frontendPayload(form, catalog, testsOf);
    const schema = frontendBuildSchema({
      companyEmailDomain: catalog.companyEmailDomain,
      companyName: catalog.companyName,
      hasSpiraCredentials: me?.has_test_management_credentials ?? false,
    });
    const found = issuesOf(schema.safeParse(payload));
    setIssues(found);
    return found.messages.length > 0 ? undefined : payload;
  };
  const region = form.platform === "nextGen" ? form.region : "US";
  const saveAsSchedule = () => {
    const payload = checked();
    if (payload) setSchedule({ family: "frontend", region, payload: { ...payload } });
  };
  const submit = () => {
    const payload = checked();
    if (!payload) return;
    if (onTemplate) return onTemplate({ family: "frontend", region, payload: { ...payload } });
    create.mutate(
      { path: buildsPath("frontend", region), payload },
      { onSuccess: ({ build }) => onCreated(build) },
    );
  };

  const messages = create.isError ? [...issues.messages, create.error.message] : issues.messages;
  const { byField } = issues;
  // Beside the frame, not in its form: a submit inside a portal still bubbles up React's tree.
  return (
    <>
      {schedule && <SaveAsScheduleDialog template={schedule} onClose={() => setSchedule(null)} />}
      <BuildDialogFrame
        title={`${onTemplate ? "Schedule's build: Frontend" : "Create Frontend Build"}${region === "CHINA" ? " (China region)" : ""}`}
        submitLabel={onTemplate ? SCHEDULE_BUILD_SUBMIT : undefined}
        messages={messages}
        pending={create.isPending}
        onSubmit={submit}
        onClose={onClose}
        onSaveAsSchedule={onTemplate ? undefined : saveAsSchedule}
      >
        <RunTypeRadios
          id="frontend-run-type"
          types={FRONTEND_RUN_TYPES}
          labelOf={(type) => FRONTEND_RUN_TYPE_LABEL[type]}
          value={form.runType}
          onChange={(runType) => {
            setIssues(NO_ISSUES);
            setForm(withRunType(form, catalog, runType));
          }}
        />
        <Box sx={{ display: "grid", gridTemplateColumns: "160px 1fr", gap: 2 }}>
          <ParallelRunnersField
            value={form.parallelRunners}
            disabled={stage}
            onChange={(parallelRunners) => set({ parallelRunners })}
          />
          <LimitedTextField
            label="Branch"
            what="branch"
            maxChars={BRANCH_MAX_LENGTH}
            value={form.branch}
            disabled={stage}
            onChange={(event) => set({ branch: event.target.value })}
            error={byField.branch !== undefined}
            helperText={byField.branch}
          />
        </Box>
        <FrontendRunTypeFields
          form={form}
          set={set}
          catalog={catalog}
          dynamicTags={tags.data}
          issues={issues}
        />
        <Stack direction="row" spacing={2} sx={{ alignItems: "center" }}>
          <Typography component="span">Legacy</Typography>
          <Switch
            checked={form.platform === "nextGen"}
            disabled={chinaList}
            onChange={(event) =>
              setForm(withPlatform(form, catalog, event.target.checked ? "nextGen" : "legacy"))
            }
            slotProps={{ input: { "aria-label": "NextGen platform" } }}
          />
          <Typography component="span">NextGen</Typography>
          {form.platform === "nextGen" && (
            <TextField
              select
              label="Build Region"
              value={form.region}
              disabled={chinaList}
              onChange={(event) => set({ region: event.target.value === "CHINA" ? "CHINA" : "US" })}
              sx={{ minWidth: 160 }}
            >
              {catalog.buildRegions.options.map((region) => (
                <MenuItem key={region} value={region}>
                  {region}
                </MenuItem>
              ))}
            </TextField>
          )}
        </Stack>
        <Box sx={{ display: "grid", gridTemplateColumns: "1fr 1fr", gap: 2 }}>
          <TextField
            select
            label="Site"
            value={form.site}
            disabled={stage}
            onChange={(event) => set({ site: event.target.value })}
            error={byField.nora_site !== undefined && form.site !== OTHER_OPTION_VALUE}
            helperText={form.site !== OTHER_OPTION_VALUE ? byField.nora_site : undefined}
          >
            {sitesOf(catalog, form.platform).map((site) => (
              <MenuItem key={site.value} value={site.value}>
                {site.label}
              </MenuItem>
            ))}
          </TextField>
          {form.site === OTHER_OPTION_VALUE ? (
            <LimitedTextField
              label="Custom site"
              what="site"
              maxChars={HOST_MAX_LENGTH}
              value={form.customSite}
              onChange={(event) => set({ customSite: event.target.value })}
              error={byField.nora_site !== undefined}
              helperText={byField.nora_site ?? "A host name or an https URL"}
            />
          ) : (
            <span />
          )}
          <TextField
            select
            label="Database host"
            value={form.databaseHost}
            slotProps={{ select: { displayEmpty: true }, inputLabel: { shrink: true } }}
            onChange={(event) => set({ databaseHost: event.target.value })}
          >
            <MenuItem value="">The site&apos;s own database</MenuItem>
            <MenuItem value={OTHER_OPTION_VALUE}>Other</MenuItem>
          </TextField>
          {form.databaseHost === OTHER_OPTION_VALUE && (
            <LimitedTextField
              label="Custom database host"
              what="database host"
              maxChars={HOST_MAX_LENGTH}
              value={form.customDatabaseHost}
              onChange={(event) => set({ customDatabaseHost: event.target.value })}
              error={byField.database_host !== undefined}
              helperText={byField.database_host ?? "A host name or an https URL"}
            />
          )}
        </Box>
      </BuildDialogFrame>
    </>
  );
}
