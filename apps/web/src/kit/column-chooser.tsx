import { Button, Checkbox, Divider, Popover, ScrollArea, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from '../lib/use-translation.tsx';
import type { DataTableColumn } from '../components/data-table.tsx';
import { IconColumns } from '../components/icons.ts';
import { useCookieState } from '../lib/list-state.ts';
import { chosenMore } from './list-source.ts';

const NONE: string[] = [];

/** A column's name in the chooser: its title where it is text, else its card label or its field. */
const nameOf = <R,>(c: DataTableColumn<R>) => (typeof c.title === 'string' ? c.title : typeof c.cardLabel === 'string' ? c.cardLabel : c.accessor);

/** The columns an agent may hide: all but the one that names the row (the card's title) and its actions. */
const hideable = <R,>(columns: DataTableColumn<R>[]) => {
  const title = columns.find((c) => c.card === 'title') ?? columns[0];
  return columns.filter((c) => c !== title && c.card !== 'action');
};

/**
 * Which of a list's columns are shown, as the user chose (cookie "<list>.columns": the hidden ones,
 * so a column added later is shown until hidden). Every list of the kit has it.
 */
export function useChosenColumns(list: string) {
  const [kept, setHidden] = useCookieState<string[]>(`${list}.columns`, NONE);
  const hidden = Array.isArray(kept) ? kept.filter((k) => typeof k === 'string') : NONE;
  return {
    hidden,
    setHidden,
    shown: <R,>(columns: DataTableColumn<R>[]) => {
      const can = new Set(hideable(columns).map((c) => c.accessor));
      return columns.filter((c) => !(can.has(c.accessor) && hidden.includes(c.accessor)));
    },
  };
}

/**
 * Further columns a list can show beside its own: every described field of its records (the
 * properties' search list), chosen by their labels, kept in the cookie "<list>.more".
 */
export type MoreColumns = { options: { key: string; label: string }[]; chosen: string[]; setChosen: (keys: string[]) => void };

/** The further columns chosen for a list (cookie "<list>.more"), only those still offered. */
export function useMoreColumns(list: string, offered: readonly string[]): Pick<MoreColumns, 'chosen' | 'setChosen'> {
  const [kept, setChosen] = useCookieState<string[]>(`${list}.more`, NONE);
  return { chosen: chosenMore(kept, offered), setChosen };
}

/** A field's label holds what was typed, accents and case aside ("θερμ" finds "Θέρμανση"). */
const plain = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
const matches = (label: string, typed: string) => plain(label).includes(plain(typed.trim()));

/** The further fields: a search box when there are many, and a tick for each. */
function MoreChoices({ more, testId }: { more: MoreColumns; testId: string }) {
  const { t } = useTranslation();
  const [typed, setTyped] = useState('');
  const shown = more.options.filter((o) => more.chosen.includes(o.key) || matches(o.label, typed));
  return (
    <>
      <Divider label={t('common.columnsMore')} labelPosition="left" />
      {more.options.length > 12 && (
        <TextInput size="xs" aria-label={t('common.columnsFind')} placeholder={t('common.columnsFind')} value={typed} onChange={(e) => setTyped(e.currentTarget.value)} data-testid={`${testId}-columns-find`} />
      )}
      <ScrollArea.Autosize mah={280} type="auto" offsetScrollbars>
        <Stack gap={8}>
          {shown.map((o) => (
            <Checkbox
              key={o.key}
              label={o.label}
              checked={more.chosen.includes(o.key)}
              onChange={(e) => more.setChosen(e.currentTarget.checked ? [...more.chosen, o.key] : more.chosen.filter((k) => k !== o.key))}
              data-testid={`${testId}-more-${o.key}`}
            />
          ))}
        </Stack>
      </ScrollArea.Autosize>
    </>
  );
}

/** The header's "Columns" button: a tick for each column that may be hidden, Show all, and the further fields a list offers. */
export function ColumnChooser<R>({ columns, hidden, setHidden, testId, more }: { columns: DataTableColumn<R>[]; hidden: string[]; setHidden: (h: string[]) => void; testId: string; more?: MoreColumns }) {
  const { t } = useTranslation();
  const choices = hideable(columns);
  if (choices.length < 2 && !more?.options.length) return null;
  return (
    <Popover position="bottom-end" shadow="md" withinPortal trapFocus>
      <Popover.Target>
        <Button variant="default" leftSection={<IconColumns size={16} />} data-testid={`${testId}-columns`}>
          {t('common.columns')}
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap={8} role="group" aria-label={t('common.columns')} data-testid={`${testId}-columns-menu`}>
          {choices.map((c) => (
            <Checkbox
              key={c.accessor}
              label={nameOf(c)}
              checked={!hidden.includes(c.accessor)}
              onChange={(e) => setHidden(e.currentTarget.checked ? hidden.filter((h) => h !== c.accessor) : [...hidden, c.accessor])}
              data-testid={`${testId}-column-${c.accessor}`}
            />
          ))}
          <Button size="xs" variant="subtle" disabled={!hidden.length} onClick={() => setHidden([])} data-testid={`${testId}-columns-all`}>
            {t('common.columnsShowAll')}
          </Button>
          {more && more.options.length > 0 && <MoreChoices more={more} testId={testId} />}
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
