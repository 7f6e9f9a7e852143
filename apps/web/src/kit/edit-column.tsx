import { ActionIcon } from '@mantine/core';
import { Link } from 'react-router';
import type { DataTableColumn } from '../components/data-table.tsx';
import { IconPencil } from '../components/icons.ts';

/** A list's Edit column: a pencil that opens the row's record for editing (`to`), named for a screen reader by `label` (the card's action on a phone). */
export function editColumn<R>(title: string, to: (r: R) => string, label: (r: R) => string, testId?: string): DataTableColumn<R> {
  return {
    accessor: 'edit',
    title,
    card: 'action',
    render: (r) => (
      <ActionIcon component={Link} to={to(r)} variant="subtle" aria-label={label(r)} data-testid={testId}>
        <IconPencil size={16} />
      </ActionIcon>
    ),
  };
}
