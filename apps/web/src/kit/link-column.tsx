import { Anchor } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { DataTableColumn } from '../components/data-table.tsx';

/** A list's column that names the row and opens its record (`to`): sortable, and the heading of the row's card on a phone. */
export function linkColumn<R>(accessor: string, title: string, to: (r: R) => string, text: (r: R) => ReactNode, testId: string): DataTableColumn<R> {
  return {
    accessor,
    title,
    sortable: true,
    card: 'title',
    render: (r) => (
      <Anchor component={Link} to={to(r)} data-testid={testId}>
        {text(r)}
      </Anchor>
    ),
  };
}
