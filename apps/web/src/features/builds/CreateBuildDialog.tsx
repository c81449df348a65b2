import type { Build, BuildRegion, BuildTemplate } from "@assay/core";
import Dialog from "@mui/material/Dialog";
import DialogContent from "@mui/material/DialogContent";
import LinearProgress from "@mui/material/LinearProgress";
import { CatalogError } from "../../components/CatalogError";
import { useCatalog } from "../../api/use-catalog";
import { BackendBuildDialog } from "./BackendBuildDialog";
import type { BuildTab } from "../../components/builds-url";
import { FrontendBuildDialog } from "./FrontendBuildDialog";
import { LoadBuildDialog } from "./LoadBuildDialog";

/** The tab's Create Build dialog, once the catalogue its option lists come from is loaded. */
export function CreateBuildDialog({
  tab,
  handedTags,
  listRegion,
  onClose,
  onCreated,
}: {
  tab: BuildTab;
  handedTags: readonly string[];
  listRegion: BuildRegion;
  onClose: () => void;
  onCreated: (build: Build) => void;
}) {
  const catalog = useCatalog();
  if (!catalog.data)
    return <CatalogPending label="Create build" catalog={catalog} onClose={onClose} />;
  const props = { catalog: catalog.data, onClose, onCreated };
  if (tab === "backend") return <BackendBuildDialog {...props} handedTags={handedTags} />;
  if (tab === "load") return <LoadBuildDialog {...props} />;
  return <FrontendBuildDialog {...props} handedTags={handedTags} listRegion={listRegion} />;
}

/**
 * A schedule's build, edited in its family's Create Build dialog (the same form and rules): the
 * dialog starts from the saved build and hands the checked one back instead of creating it.
 */
export function ScheduleBuildDialog({
  family,
  template,
  onTemplate,
  onClose,
}: {
  family: BuildTemplate["family"];
  /** The schedule's build when it is of this family; null starts from the dialog's defaults. */
  template: BuildTemplate | null;
  onTemplate: (template: BuildTemplate) => void;
  onClose: () => void;
}) {
  const catalog = useCatalog();
  if (!catalog.data) {
    return <CatalogPending label="Schedule's build" catalog={catalog} onClose={onClose} />;
  }
  const props = {
    catalog: catalog.data,
    onClose,
    onCreated: onClose,
    template: template?.family === family ? template : null,
    onTemplate,
  };
  if (family === "backend") return <BackendBuildDialog {...props} handedTags={[]} />;
  if (family === "load") return <LoadBuildDialog {...props} />;
  return <FrontendBuildDialog {...props} handedTags={[]} listRegion={template?.region ?? "US"} />;
}

/** Both dialogs' wait for the catalogue (the build options), or its error. */
function CatalogPending({
  label,
  catalog,
  onClose,
}: {
  label: string;
  catalog: ReturnType<typeof useCatalog>;
  onClose: () => void;
}) {
  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth aria-label={label}>
      <DialogContent>
        {catalog.isError ? (
          <CatalogError what="the build options" error={catalog.error} />
        ) : (
          <LinearProgress aria-label="Loading the build options" />
        )}
      </DialogContent>
    </Dialog>
  );
}
