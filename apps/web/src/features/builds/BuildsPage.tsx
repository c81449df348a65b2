import type { Build, BuildRegion } from "@assay/core";
import Paper from "@mui/material/Paper";
import { useIsFetching, useQueryClient } from "@tanstack/react-query";
import { useMemo } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { queryKeys } from "../../api/query-keys";
import { useSignedIn } from "../../api/use-signed-in";
import { buildColumns } from "./build-columns";
import { BuildListTable } from "./BuildListTable";
import { BuildLogDialog } from "./BuildLogDialog";
import {
  buildsHref,
  readBuildsState,
  type BuildsState,
  type BuildTab,
} from "../../components/builds-url";
import { BuildsToolbar, TAB_LABEL } from "./BuildsToolbar";
import { CreateBuildDialog } from "./CreateBuildDialog";
import { buildsPath, refreshBuildList, useBuildList } from "./use-builds";

function BuildList({
  state,
  go,
}: {
  state: BuildsState;
  go: (next: Partial<BuildsState>) => void;
}) {
  const path = buildsPath(state.tab, state.region);
  const list = useBuildList(path, state.page, state.size);
  const logHref = (build: Build) => buildsHref({ ...state, log: String(build.id) });
  // A running build's duration counts to the list's last read, which each poll moves on.
  const columns = buildColumns(state.tab, list.dataUpdatedAt, logHref);
  return (
    <BuildListTable
      label={`${TAB_LABEL[state.tab]} builds`}
      columns={columns}
      data={list.data}
      isPending={list.isPending}
      isError={list.isError}
      page={state.page}
      size={state.size}
      onPage={(page) => go({ page })}
      onSize={(size) => go({ size, page: 1 })}
    />
  );
}

/**
 * Builds (/builds): the Frontend, Backend and Load builds on tabs 0, 1 and 2, each with its phase
 * and status, refreshing itself while a build is active; New Build opens the tab's Create Build
 * dialog (signed-in users only), and a build's log opens over the list.
 */
export function BuildsPage() {
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const signedIn = useSignedIn();
  const state = useMemo(() => readBuildsState(search), [search]);
  const go = (next: Partial<BuildsState>, replace = false) =>
    void navigate(buildsHref({ ...state, ...next }), { replace });
  const path = buildsPath(state.tab, state.region);
  const refreshing = useIsFetching({ queryKey: queryKeys.buildLists(path) }) > 0;

  return (
    <Paper variant="outlined">
      <BuildsToolbar
        tab={state.tab}
        region={state.region}
        refreshing={refreshing}
        onTab={(tab: BuildTab) => go({ tab, page: 1, newBuild: false, tags: [], log: null })}
        onRegion={(region: BuildRegion) => go({ region, page: 1 })}
        onNewBuild={() => go({ newBuild: true, tags: [] })}
        onRefresh={() => void refreshBuildList(queryClient, path)}
      />
      <BuildList state={state} go={go} />
      {state.newBuild && signedIn && (
        <CreateBuildDialog
          tab={state.tab}
          handedTags={state.tags}
          listRegion={state.region}
          onClose={() => go({ newBuild: false, tags: [] }, true)}
          onCreated={(build) =>
            go({
              tab: build.family,
              region: build.region,
              page: 1,
              newBuild: false,
              tags: [],
            })
          }
        />
      )}
      {state.log && <BuildLogDialog id={state.log} onClose={() => go({ log: null })} />}
    </Paper>
  );
}
