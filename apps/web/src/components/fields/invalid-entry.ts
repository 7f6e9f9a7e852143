/** The attribute a field's input carries while its text is not a value the field can hold (a time of day, a date). */
export const INVALID_ENTRY = 'data-entry-invalid';

/**
 * Before a form saves: a time or date field whose text is not a time of day or a date the calendar
 * has is focused, and the answer is true (the form then does not save; the field shows why). The
 * value it holds is still the one before the bad text, and saving it would quietly drop what the
 * user meant.
 */
export function focusInvalidEntry(within: ParentNode = document): boolean {
  const bad = within.querySelector<HTMLInputElement>(`input[${INVALID_ENTRY}="true"]`);
  bad?.focus();
  return bad != null;
}
