// A list's footer: the rows shown of how many, the page size, the pages.
import { Group, Pagination, Select, Text } from '@mantine/core';
import { useTranslation } from '../lib/use-translation.tsx';
import { SHOW_ALL } from '@crm/contract/constants';
import './table.css';

/** How many pages `total` rows make, `perPage` a page ("Show all" is one). */
export const pageCount = (total: number, perPage: number) => (perPage >= SHOW_ALL ? 1 : Math.max(1, Math.ceil(total / perPage)));

/**
 * A list's footer: which rows of how many it shows, the page size, and the pages (with their
 * spoken names). The DataTable's, and a screen's that draws its own table (the availability grid).
 * `loading`: the rows are on their way; a pager stands in, disabled (most lists have pages), so the
 * footer does not grow when they come.
 */
export function ListPager({
  testId,
  total,
  page,
  perPage,
  pageSizes,
  loading = false,
  onPage,
  onPerPage,
}: {
  testId: string;
  total: number;
  page: number;
  perPage: number;
  pageSizes: readonly number[];
  loading?: boolean;
  onPage: (page: number) => void;
  onPerPage: (perPage: number) => void;
}) {
  const { t } = useTranslation();
  const pages = pageCount(total, perPage);
  const current = Math.min(page, pages);
  const from = total === 0 ? 0 : perPage >= SHOW_ALL ? 1 : (current - 1) * perPage + 1;
  const to = perPage >= SHOW_ALL ? total : Math.min(total, current * perPage);
  const sizeOptions = pageSizes.map((n) => ({ value: String(n), label: n === SHOW_ALL ? t('accounts.ui.list.showAll') : String(n) }));
  return (
    <Group justify="space-between" gap="xs" wrap="wrap">
      <Text size="sm" c="dimmed" data-testid={`${testId}-range`}>
        {t('accounts.ui.list.range', { from, to, total })}
      </Text>
      <Group gap="sm" wrap="wrap">
        <Group gap={6} wrap="nowrap">
          <Text size="sm" c="dimmed">
            {t('accounts.ui.list.perPage')}
          </Text>
          <Select
            size="xs"
            // "Show all" needs the room; numbers alone do with less.
            w={pageSizes.includes(SHOW_ALL) ? 110 : 90}
            data={sizeOptions}
            value={String(perPage)}
            allowDeselect={false}
            aria-label={t('accounts.ui.list.perPage')}
            data-testid={`${testId}-page-size`}
            onChange={(v) => v && onPerPage(Number(v))}
          />
        </Group>
        {(pages > 1 || loading) && (
          <Pagination
            size="sm"
            total={pages}
            disabled={loading}
            value={current}
            onChange={onPage}
            withEdges={pages > 5}
            getItemProps={(p) => ({ 'aria-label': t('table.pageN', { page: p }) })}
            getControlProps={(control) => ({ 'aria-label': t(`table.${control}Page`) })}
            data-testid={`${testId}-pager`}
          />
        )}
      </Group>
    </Group>
  );
}
