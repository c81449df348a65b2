import {
  compareTagNames,
  DeletedTaggedTestSchema,
  DeletedTagSchema,
  RestoredTagSchema,
  TagLinkSchema,
  UNSTABLE_TAG,
  type TagList,
  type TaggedTest,
} from "@assay/core";
import { useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { getJson, sendJson } from "../../api/client";
import { queryKeys } from "../../api/query-keys";
import { TAG_LIST_READ } from "../../api/tag-list-read";

/** One tag as the screens show it: its name, id and tests. */
export interface TagView {
  id: number;
  name: string;
  tests: TaggedTest[];
}

/**
 * The tags in name order. The by-tag map is not trusted for order: a JavaScript object puts
 * number-like keys ("123") first whatever order the server sent.
 */
export function sortedTags(list: TagList): TagView[] {
  return Object.entries(list.byTag)
    .map(([name, entry]) => ({ id: entry.id, name, tests: entry.tests }))
    .sort((a, b) => compareTagNames(a.name, b.name));
}

/** "1 test", "35 tests": how many tests a tag holds, in the screen's sentences. */
export const testsPhrase = (count: number) => (count === 1 ? "1 test" : `${count} tests`);

/** The names of the dynamic tags a test is in, in name order. */
export function tagsOfTest(tags: readonly TagView[], testId: number): TagView[] {
  return tags.filter((tag) => tag.tests.some((test) => test.id === testId));
}

/** Every dynamic tag with its tests (GET /v1/dtag), shared by the screen and each tag editor. */
export function useTags() {
  return useQuery({
    queryKey: TAG_LIST_READ.queryKey,
    queryFn: ({ signal }) => getJson(TAG_LIST_READ.path, TAG_LIST_READ.schema, signal),
    select: sortedTags,
  });
}

/**
 * After any change the list is fetched again (spec section 4). A change to '@unstable' also
 * changes which failures count as unstable, so the run lists and results are read again too.
 */
async function refetchAfter(queryClient: QueryClient, tagName: string) {
  const refreshes = [queryClient.invalidateQueries({ queryKey: queryKeys.tags })];
  if (tagName === UNSTABLE_TAG) {
    // Prefixes of the run screens' keys (api/query-keys.ts).
    refreshes.push(queryClient.invalidateQueries({ queryKey: ["run-list"] }));
    refreshes.push(queryClient.invalidateQueries({ queryKey: ["frontend-run"] }));
  }
  await Promise.all(refreshes);
}

export interface AddTagInput {
  name: string;
  testId: number;
  testName?: string;
}

/** Puts a tag on a test (POST /v1/dtag/): an unknown tag is created, a known one attached. */
export function useAddTag() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: AddTagInput) => sendJson("POST", "/v1/dtag/", input, TagLinkSchema),
    onSuccess: (link) => refetchAfter(queryClient, link.tag.name),
  });
}

/** Deletes a tag and takes every test out of it (DELETE /v1/dtag/{id}). */
export function useDeleteTag() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (tag: { id: number; name: string }) =>
      sendJson("DELETE", `/v1/dtag/${tag.id}`, undefined, DeletedTagSchema),
    onSuccess: (deleted) => refetchAfter(queryClient, deleted.name),
  });
}

/** Puts a deleted tag back with the tests it held (POST /v1/dtag/{id}/restore): Undo. */
export function useRestoreTag() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (deletedId: number) =>
      sendJson("POST", `/v1/dtag/${deletedId}/restore`, undefined, RestoredTagSchema),
    onSuccess: (restored) => refetchAfter(queryClient, restored.name),
  });
}

export interface RemoveTaggedTestInput {
  taggedTestId: number;
  testId: number;
  tagName: string;
}

/** Takes one test out of one tag (DELETE /v1/tagged_test/{id}). */
export function useRemoveTaggedTest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: RemoveTaggedTestInput) =>
      sendJson(
        "DELETE",
        `/v1/tagged_test/${input.taggedTestId}`,
        undefined,
        DeletedTaggedTestSchema,
      ),
    onSuccess: (_removed, input) => refetchAfter(queryClient, input.tagName),
  });
}
