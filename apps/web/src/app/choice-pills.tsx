import { Pill, useComboboxContext, type ComboboxRenderPillInput } from '@mantine/core';
import type { MouseEvent } from 'react';
import { focusQuietly } from './clear-buttons.ts';

type Translate = (key: string, values: { name: string }) => string;

/**
 * The chosen values of a multi-select, each with a × of its own for the keyboard too (WCAG 2.1.1,
 * 4.1.2). Mantine's pills hide their × from the keyboard and from screen readers (tabIndex -1,
 * aria-hidden), so one chosen value could be taken out only with a mouse (or, the last one, with
 * Backspace in the field). Every multi-select of the app renders these from the theme (app.tsx): the ×
 * is in the tab order, named after its value in the reader's language ("Remove Athens"), and Enter or
 * Space on it removes that value; the focus goes on to the next value's ×, or back to the field when
 * there is none (its list stays closed).
 */
export function choicePills(t: Translate) {
  return function renderPill(input: ComboboxRenderPillInput) {
    return <ChoicePill {...input} t={t} />;
  };
}

/**
 * One chosen value. A read-only or disabled multi-select shows its values without a ×, as Mantine's
 * own pills do: Mantine tells a pill rendered this way whether the field is disabled, not whether it
 * is read-only, so that is read from the field's combobox (every multi-select is one).
 */
function ChoicePill({ option, value, onRemove, disabled, reorderProps, t }: ComboboxRenderPillInput & { t: Translate }) {
  const { readOnly } = useComboboxContext();
  const name = option?.label ?? String(value ?? '');
  return (
    <Pill
      {...reorderProps}
      // The class the multi-select gives its own pills (its static selector).
      className="mantine-MultiSelect-pill"
      withRemoveButton={!disabled && !readOnly && !option?.disabled}
      onRemove={onRemove}
      disabled={disabled}
      removeButtonProps={{ 'aria-label': t('common.removeChoice', { name }), tabIndex: 0, 'aria-hidden': undefined, onClick: onwards }}
    >
      {name}
    </Pill>
  );
}

/** After a removal by Enter or Space (a click with no pointer: detail 0): the focus to what comes next. */
function onwards(e: MouseEvent<HTMLButtonElement>) {
  if (e.detail !== 0) return;
  const pill = e.currentTarget.closest('.mantine-Pill-root');
  const wrapper = e.currentTarget.closest('.mantine-Input-wrapper');
  if (!pill?.parentElement || !wrapper) return;
  const index = Array.from(pill.parentElement.children).indexOf(pill);
  // After the pill has gone: the × now in its place, else the field's own text box (a multi-select
  // that cannot be searched has none while it shows values), else the × before.
  setTimeout(() => {
    const removers = Array.from(wrapper.querySelectorAll<HTMLElement>('.mantine-Pill-root button'));
    const field = wrapper.querySelector<HTMLElement>('input:not([type="hidden"])');
    if (removers[index]) removers[index].focus();
    else if (field) focusQuietly(field);
    else removers.at(-1)?.focus();
  }, 0);
}
