import { Button, Checkbox, Popover, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { DataTableColumn } from '../components/data-table.tsx';
import { IconColumns } from '../components/icons.ts';
import { useCookieState } from '../lib/list-state.ts';

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

/** The header's "Columns" button: a tick for each column that may be hidden, and Show all. */
export function ColumnChooser<R>({ columns, hidden, setHidden, testId }: { columns: DataTableColumn<R>[]; hidden: string[]; setHidden: (h: string[]) => void; testId: string }) {
  const { t } = useTranslation();
  const choices = hideable(columns);
  if (choices.length < 2) return null;
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
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
