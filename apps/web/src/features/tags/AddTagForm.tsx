import { normalizeTag } from "@assay/core";
import Box from "@mui/material/Box";
import Button from "@mui/material/Button";
import TextField from "@mui/material/TextField";
import Typography from "@mui/material/Typography";
import { useState, type FormEvent } from "react";
import { SignInHint } from "./SignInHint";
import { TagNameField } from "./TagNameField";
import { useAddTag } from "./use-tags";

const DIGITS = /^\d*$/;

interface AddTagFormProps {
  signedIn: boolean;
  tagNames: readonly string[];
}

/**
 * Tags a test by its id: a new name creates the tag, a known one attaches it, a tag the test
 * already has changes nothing (spec section 5). The list is fetched again after each add.
 */
export function AddTagForm({ signedIn, tagNames }: AddTagFormProps) {
  const [name, setName] = useState("");
  const [testId, setTestId] = useState("");
  const [nameError, setNameError] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<string | null>(null);
  const add = useAddTag();

  const submit = () => {
    if (!signedIn || add.isPending) return;
    const check = normalizeTag(name, tagNames);
    if (!check.ok) {
      setNameError(check.message);
      return;
    }
    if (testId === "") return;
    setNameError(null);
    setOutcome(null);
    const id = Number(testId);
    add.mutate(
      { name: check.name, testId: id },
      {
        onSuccess: (link) => {
          setName("");
          setOutcome(
            link.alreadyTagged
              ? `TC${id} already has the tag ${link.tag.name}: nothing changed.`
              : `TC${id} is now tagged ${link.tag.name}.`,
          );
        },
      },
    );
  };

  const onFormSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit();
  };

  const disabled = !signedIn;
  return (
    <Box component="form" aria-label="Tag a test" onSubmit={onFormSubmit} noValidate>
      <Box sx={{ display: "flex", alignItems: "flex-start", gap: 1, flexWrap: "wrap" }}>
        <SignInHint signedIn={signedIn}>
          <TagNameField
            value={name}
            onChange={(next) => {
              setName(next);
              setNameError(null);
            }}
            suggestions={tagNames}
            disabled={disabled}
            error={nameError}
            showRule
            sx={{ width: 300 }}
          />
        </SignInHint>
        <SignInHint signedIn={signedIn}>
          <TextField
            label="Test ID"
            value={testId}
            disabled={disabled}
            onChange={(event) => {
              // Non-digits are refused as they are typed: a test id is a number.
              if (DIGITS.test(event.target.value)) setTestId(event.target.value);
            }}
            slotProps={{ htmlInput: { inputMode: "numeric", maxLength: 15 } }}
            sx={{ width: 140 }}
          />
        </SignInHint>
        <SignInHint signedIn={signedIn}>
          <Button
            type="submit"
            variant="contained"
            disabled={disabled || add.isPending || name.trim() === "" || testId === ""}
            sx={{ height: 40 }}
          >
            Add tag
          </Button>
        </SignInHint>
      </Box>
      {add.isError && (
        <Typography role="alert" color="error" variant="body2" sx={{ mt: 0.5 }}>
          Could not add the tag: {add.error.message}
        </Typography>
      )}
      {outcome && !add.isError && (
        <Typography role="status" color="text.secondary" variant="body2" sx={{ mt: 0.5 }}>
          {outcome}
        </Typography>
      )}
    </Box>
  );
}
