import { createContext, useContext, useEffect, useSyncExternalStore } from 'react';

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

/*
 * How many boxes hold text that is no value, kept as React state so that a save status can say so
 * ("All changes saved" would be untrue while a box keeps text that was not stored). The fields that
 * carry INVALID_ENTRY report to the nearest scope while they do: the screen's by default, or an
 * editor's own (an activity's editor has its own status line).
 */
export class InvalidEntries {
  private count = 0;
  private readonly listeners = new Set<() => void>();
  readonly subscribe = (l: () => void) => {
    this.listeners.add(l);
    return () => void this.listeners.delete(l);
  };
  readonly any = () => this.count > 0;
  add(delta: 1 | -1) {
    this.count += delta;
    this.listeners.forEach((l) => l());
  }
}

const InvalidEntryScope = createContext(new InvalidEntries());
/** Boxes inside report to this scope, not to the screen's. */
export const InvalidEntryScopeProvider = InvalidEntryScope.Provider;

/** A field reports, while `invalid` is true, that its box holds text that is no value. */
export function useReportInvalidEntry(invalid: boolean) {
  const scope = useContext(InvalidEntryScope);
  useEffect(() => {
    if (!invalid) return;
    scope.add(1);
    return () => scope.add(-1);
  }, [invalid, scope]);
}

/** True while a box in this scope holds text that is no value (and so was not saved). */
export function useAnyInvalidEntry(scope?: InvalidEntries): boolean {
  const nearest = useContext(InvalidEntryScope);
  const s = scope ?? nearest;
  return useSyncExternalStore(s.subscribe, s.any, () => false);
}
