import { useTranslation } from '../../../lib/use-translation.tsx';
import type { TObjectSearchRow } from '@crm/contract';
import { OBJECT_MORE_COLUMNS } from '@crm/contract/object-fields';
import type { DataTableColumn } from '../../../components/data-table.tsx';
import { useMoreColumns, type MoreColumns } from '../../../kit/column-chooser.tsx';
import { moreColumnOptions } from '../../../kit/more-columns.ts';
import { describe, fieldLabel, formatObjectValue } from '../object-display.ts';

/**
 * The property search list's further columns: every described field the row does not hold
 * (OBJECT_MORE_COLUMNS), offered in the column chooser by its label and kept in the cookie
 * "object-search.more"; each chosen one is asked for and shown as the view shows it (a choice comes
 * named in the reader's language).
 */
export function useObjectMoreColumns(list: string): MoreColumns & { columns: DataTableColumn<TObjectSearchRow>[] } {
  const { t } = useTranslation();
  const { chosen, setChosen } = useMoreColumns(list, OBJECT_MORE_COLUMNS);
  const options = moreColumnOptions(OBJECT_MORE_COLUMNS, (key) => fieldLabel(t, key));
  const columns = chosen.map((key): DataTableColumn<TObjectSearchRow> => {
    const d = describe(key)!;
    const numeric = typeof d.type === 'string' && ['number', 'area', 'currency', 'distance', 'distance-km'].includes(d.type);
    return {
      accessor: `more.${key}`,
      title: fieldLabel(t, key),
      noWrap: numeric,
      textAlign: numeric ? 'right' : undefined,
      render: (r) => {
        const v = r.more?.[key];
        // A choice (and a yes/no kept unknown) comes as its text; numbers, dates and flags are written as the view writes them.
        return typeof v === 'string' && d.type !== 'date' ? v : formatObjectValue(t, d, v ?? null);
      },
    };
  });
  return { options, chosen, setChosen, columns };
}
