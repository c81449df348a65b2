import { BUILD_MESSAGES, type Catalog } from "@assay/core";
import Alert from "@mui/material/Alert";
import Autocomplete from "@mui/material/Autocomplete";
import MenuItem from "@mui/material/MenuItem";
import TextField from "@mui/material/TextField";
import type { TagView } from "../tags/use-tags";
import type { Issues } from "./build-issues";
import { knownTags, subsetLabel, subsetsOf, type FrontendForm } from "./frontend-build-form";
import { ReleaseSelectors } from "./ReleaseSelectors";
import { TagPicker } from "./TagPicker";

type Set = (change: Partial<FrontendForm>) => void;

/** The inputs a run type shows (spec section 4: the run type drives which inputs show). */
export function FrontendRunTypeFields({
  form,
  set,
  catalog,
  dynamicTags,
  issues,
}: {
  form: FrontendForm;
  set: Set;
  catalog: Catalog;
  dynamicTags: readonly TagView[] | undefined;
  issues: Issues;
}) {
  const { byField } = issues;
  switch (form.runType) {
    case "by_tags":
      return (
        <TagPicker
          known={knownTags(catalog, form.platform)}
          value={form.tags}
          onChange={(tags) => set({ tags })}
          error={byField.tag}
        />
      );
    case "by_sub_set":
      return (
        <TextField
          select
          label="Sub Set"
          value={form.subSet}
          onChange={(event) => set({ subSet: event.target.value })}
          error={byField.subSet !== undefined || byField.tag !== undefined}
          helperText={byField.subSet ?? byField.tag}
        >
          {subsetsOf(catalog, form.platform).map((subset) => (
            <MenuItem key={subset.name} value={subset.name}>
              {subsetLabel(subset)}
            </MenuItem>
          ))}
        </TextField>
      );
    case "by_dynamic_tags":
      return (
        <TextField
          select
          label="Dynamic tag"
          value={form.dynamicTag}
          onChange={(event) => set({ dynamicTag: event.target.value })}
          error={byField.dynamicTag !== undefined}
          helperText={byField.dynamicTag ?? "Runs the tests the dynamic tag holds"}
        >
          {(dynamicTags ?? []).map((tag) => (
            <MenuItem key={tag.id} value={tag.name} disabled={tag.tests.length === 0}>
              {tag.name} ({tag.tests.length})
            </MenuItem>
          ))}
        </TextField>
      );
    case "oq_test":
      return (
        <ReleaseSelectors
          releaseId={form.releaseId}
          jiraRelease={form.jiraRelease}
          error={byField.releaseId}
          onChange={set}
        />
      );
    case "translation_test":
      return (
        <>
          <Alert severity="info" role="note">
            {BUILD_MESSAGES.stageNote}
          </Alert>
          <TextField
            label="Screenshot report emails"
            value={form.emails}
            onChange={(event) => set({ emails: event.target.value })}
            error={byField.translationReportToEmail !== undefined}
            helperText={
              byField.translationReportToEmail ??
              `Comma separated; ${catalog.companyEmailDomain} addresses only`
            }
          />
          <Autocomplete
            multiple
            options={catalog.translationLanguages.map((lang) => lang.translationCode)}
            getOptionLabel={(code) => {
              const lang = catalog.translationLanguages.find((l) => l.translationCode === code);
              return lang ? `${lang.language} (${code})` : code;
            }}
            value={form.languages}
            onChange={(_event, languages) => set({ languages })}
            slotProps={{ listbox: { style: { maxHeight: 300 } } }}
            renderInput={(params) => (
              <TextField
                {...params}
                label="Languages"
                error={byField.translationLanguageCode !== undefined}
                helperText={byField.translationLanguageCode}
              />
            )}
          />
        </>
      );
    case "bulk_image_upload":
      return (
        <TextField
          label="Number of Patients"
          type="number"
          value={form.numberOfPatients}
          onChange={(event) => set({ numberOfPatients: event.target.value })}
          error={byField.numberOfPatientsCreated !== undefined}
          helperText={byField.numberOfPatientsCreated}
          slotProps={{ htmlInput: { min: 1, step: 1 } }}
        />
      );
    default:
      return null;
  }
}
