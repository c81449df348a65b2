-- Stacks and console logs stored once a month too (issue 36; migration 0216 did the steps): a
-- test's repeated failure has the same stack from run to run (57 MB per million results) and
-- its console log often too (15 MB). A result holds the key of each (stack_ref, log_ref) in
-- result_texts of its month instead of the text. Rows stored before keep error_stack and
-- console_log inline (their refs null); reads take the ref's text, else the inline one. No
-- result is rewritten: adding null columns changes only the catalogue.
ALTER TABLE results ADD COLUMN stack_ref uuid, ADD COLUMN log_ref uuid;
