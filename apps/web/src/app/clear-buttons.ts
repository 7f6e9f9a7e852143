import type { InputClearButtonProps } from '@mantine/core';
import type { MouseEvent } from 'react';

/**
 * The × that empties a clearable field, for keyboard users too (WCAG 2.1.1). Mantine's selects hide
 * theirs from the keyboard and from screen readers (tabIndex -1, aria-hidden), so a value once
 * picked could only be cleared with a mouse. Every clearable field of the app gets these props from
 * the theme (app.tsx): the × is in the tab order right after its field, named in the reader's
 * language, and Enter or Space on it clears the field. The × goes with the value, so a clear started
 * from the keyboard puts the focus back in the field instead of dropping it to the top of the page,
 * and leaves the field's list (a date's calendar) closed: see focusQuietly.
 *
 * A field that passes its own `clearButtonProps` replaces these: don't (the dates' own would even
 * replace their clearing).
 */
export function clearButtonProps(label: string): InputClearButtonProps {
  return {
    'aria-label': label,
    tabIndex: 0,
    'aria-hidden': undefined,
    // A target of its own now: at least 24 px (WCAG 2.5.8; Mantine's is 22 px beside the field's edge).
    size: '24px',
    // Capture: the date pickers' onClick is their clearing, which an onClick here would replace.
    onClickCapture: backToField,
  };
}

/** A click with no pointer (detail 0) is Enter or Space on the focused ×. */
function backToField(e: MouseEvent<HTMLButtonElement>) {
  if (e.detail !== 0) return;
  const button = e.currentTarget;
  const wrapper = button.closest('.mantine-Input-wrapper');
  if (!wrapper) return;
  // After the clear has been drawn: the field's text box (a select's, a typed date's) or its button
  // (a date picker's), whatever the × was beside.
  setTimeout(() => {
    const field = Array.from(wrapper.querySelectorAll<HTMLElement>('input:not([type="hidden"]), button')).find((el) => el !== button && !el.className.includes('InputClearButton') && !el.closest('.mantine-Pill-root'));
    if (field) focusQuietly(field);
  }, 0);
}

/**
 * Puts the focus in a field without what the field does when it is entered: a searchable select, a
 * multi-select and a typed date open their list (or calendar) on focus, and a field the app focuses
 * after a clear (or a removed choice) would pop its list open although the user only wanted it
 * emptied. The list then waits to be asked for: typing, the down arrow (Alt+Down), a click.
 *
 * The field's focus handlers are React's, which hears focus as the `focusin` that bubbles to the
 * app's root: this one focus is stopped on its way there (window, capture). The browser's own focus
 * (and its :focus styles) is untouched.
 */
export function focusQuietly(field: HTMLElement) {
  const hush = (e: FocusEvent) => {
    if (e.target === field) e.stopImmediatePropagation();
  };
  window.addEventListener('focusin', hush, true);
  try {
    field.focus();
  } finally {
    window.removeEventListener('focusin', hush, true);
  }
}

/**
 * The theme's default props for the clearable fields the app uses: the choices' ×, the dates' × and
 * the date pickers' (the app's are a from–to range: "the dates").
 */
export function clearButtonDefaults(t: (key: string) => string) {
  const props = (key: string) => ({ defaultProps: { clearButtonProps: clearButtonProps(t(key)) } });
  const choice = props('common.clearChoice');
  const date = props('common.clearDate');
  return { Select: choice, MultiSelect: choice, DateInput: date, DateTimePicker: date, DatePickerInput: props('common.clearDates'), FileInput: props('common.clearFile') };
}
