import { isAlreadyOnTest, normalizeTag } from "@assay/core";
import CancelIcon from "@mui/icons-material/Cancel";
import Box from "@mui/material/Box";
import Chip from "@mui/material/Chip";
import Typography from "@mui/material/Typography";
import { useMemo, useState, type FormEvent } from "react";
import { useSignedIn } from "../../api/use-signed-in";
import { SignInHint } from "./SignInHint";
import { TagNameField } from "./TagNameField";
import { tagsOfTest, useAddTag, useRemoveTaggedTest, useTags } from "./use-tags";

export interface TagEditorProps {
  /** The stable test id (TC{id}) whose tags are edited. */
  testId: number;
  /** The test's name, kept with the tag so the Dynamic Tags screen can show it. */
  testName: string;
  /**
   * The dynamic tags the caller already knows the test has: shown until the tag list loads,
   * after which the list is the truth.
   */
  tags: string[];
}

/**
 * The per-result tag editor: the test's dynamic tags as chips (removable when signed in) and a
 * field that adds one, with suggestions from the existing tags. Same API and rules as the
 * Dynamic Tags screen: names are lower-cased, a tag already on the test is ignored, an unknown
 * tag is created.
 */
export function TagEditor({ testId, testName, tags }: TagEditorProps) {
  const list = useTags();
  const signedIn = useSignedIn();
  const add = useAddTag();
  const remove = useRemoveTaggedTest();
  const [name, setName] = useState("");
  const [message, setMessage] = useState<{ text: string; error: boolean } | null>(null);

  const onTest = useMemo(
    () => (list.data ? tagsOfTest(list.data, testId) : undefined),
    [list.data, testId],
  );
  const currentNames = onTest?.map((tag) => tag.name) ?? tags;
  const suggestions = (list.data ?? [])
    .map((tag) => tag.name)
    .filter((tag) => !isAlreadyOnTest(tag, currentNames));

  const addTag = (typed: string) => {
    if (!signedIn || add.isPending) return;
    const check = normalizeTag(
      typed,
      (list.data ?? []).map((tag) => tag.name),
    );
    if (!check.ok) {
      setMessage({ text: check.message, error: true });
      return;
    }
    setName("");
    if (isAlreadyOnTest(check.name, currentNames)) {
      setMessage({ text: `TC${testId} already has ${check.name}.`, error: false });
      return;
    }
    setMessage(null);
    add.mutate(
      { name: check.name, testId, testName },
      {
        onError: (error) =>
          setMessage({ text: `Could not add ${check.name}: ${error.message}`, error: true }),
      },
    );
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    addTag(name);
  };

  return (
    <Box
      component="form"
      aria-label={`Dynamic tags of TC${testId}`}
      onSubmit={onSubmit}
      noValidate
      sx={{ display: "flex", flexDirection: "column", gap: 0.5 }}
    >
      <Box sx={{ display: "flex", alignItems: "center", flexWrap: "wrap", gap: 0.5 }}>
        {onTest
          ? onTest.map((tag) => {
              const link = tag.tests.find((test) => test.id === testId);
              const removing =
                remove.isPending && remove.variables.taggedTestId === link?.taggedTestId;
              return (
                <Chip
                  key={tag.id}
                  size="small"
                  label={tag.name}
                  disabled={removing}
                  onDelete={
                    signedIn && link
                      ? () => {
                          setMessage(null);
                          remove.mutate(
                            { taggedTestId: link.taggedTestId, testId, tagName: tag.name },
                            {
                              onError: (error) =>
                                setMessage({
                                  text: `Could not remove ${tag.name}: ${error.message}`,
                                  error: true,
                                }),
                            },
                          );
                        }
                      : undefined
                  }
                  deleteIcon={<CancelIcon aria-label={`Remove tag ${tag.name}`} />}
                />
              );
            })
          : tags.map((tag) => <Chip key={tag} size="small" label={tag} />)}
        <SignInHint signedIn={signedIn}>
          <TagNameField
            label="Add tag"
            value={name}
            onChange={(next) => {
              setName(next);
              if (message?.error) setMessage(null);
            }}
            suggestions={suggestions}
            onPick={addTag}
            disabled={!signedIn || add.isPending}
            sx={{ width: 180 }}
          />
        </SignInHint>
      </Box>
      {message && (
        <Typography
          role={message.error ? "alert" : "status"}
          variant="caption"
          color={message.error ? "error" : "text.secondary"}
        >
          {message.text}
        </Typography>
      )}
    </Box>
  );
}
