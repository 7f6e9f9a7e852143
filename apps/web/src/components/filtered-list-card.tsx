import { Badge, Button, Card, Collapse, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useState, type ComponentProps, type ReactNode } from 'react';
import { useTranslation } from '../lib/use-translation.tsx';
import { IconFilter } from './icons.ts';
import { PagerFooter } from './activities/shared.tsx';

type Props = {
  /** The card's data-testid. */
  cardTestId: string;
  /** The prefix of the parts' test ids (`${testId}-count`, `-filter-toggle`, `-empty`, the pager's). */
  testId: string;
  title: string;
  total: number;
  countColor?: string;
  /** Whether a filter is set (the toggle is green; "Clear" is offered). */
  filtered: boolean;
  onClear: () => void;
  /** The filters' inputs, rendered when opened (most visits never open them). */
  filters: () => ReactNode;
  filtersTestId?: string;
  /** Buttons beside the filter toggle (given, even as false: the two sit in a group). */
  buttons?: ReactNode;
  /** What an empty list says (null: the list is not empty). */
  emptyText: string | null;
  /** The list. */
  children: ReactNode;
  pager: Omit<ComponentProps<typeof PagerFooter>, 'total' | 'testId'>;
};

/** An activity list's card: title with the count, a collapsible filter card, the list (or what its emptiness means), the pager. */
export function FilteredListCard(p: Props) {
  const { t } = useTranslation();
  const [filtersOpen, setFiltersOpen] = useState(false);
  const toggle = (
    <Button
      variant={p.filtered ? 'filled' : 'default'}
      color={p.filtered ? 'green' : undefined}
      leftSection={<IconFilter size={16} />}
      onClick={() => setFiltersOpen((o) => !o)}
      aria-expanded={filtersOpen}
      data-testid={`${p.testId}-filter-toggle`}
      data-active={p.filtered}
    >
      {t('activities.filters')}
    </Button>
  );
  return (
    <Card withBorder data-testid={p.cardTestId}>
      <Stack gap="sm">
        <Group justify="space-between">
          <Group gap="xs">
            <Title order={3} size="h4">{p.title}</Title>
            <Badge variant="light" size="lg" color={p.countColor} data-testid={`${p.testId}-count`}>{p.total}</Badge>
          </Group>
          {p.buttons !== undefined ? (
            <Group gap="xs">
              {toggle}
              {p.buttons}
            </Group>
          ) : (
            toggle
          )}
        </Group>

        <Collapse expanded={filtersOpen}>
          {filtersOpen && (
            <Paper withBorder p="sm" data-testid={p.filtersTestId}>
              <Group align="flex-end" gap="sm" wrap="wrap">
                {p.filters()}
                {p.filtered && (
                  <Button variant="subtle" onClick={p.onClear}>{t('activities.filter.clear')}</Button>
                )}
              </Group>
            </Paper>
          )}
        </Collapse>

        {p.emptyText !== null ? (
          <Text c="dimmed" size="sm" data-testid={`${p.testId}-empty`}>{p.emptyText}</Text>
        ) : (
          p.children
        )}

        <PagerFooter total={p.total} testId={p.testId} {...p.pager} />
      </Stack>
    </Card>
  );
}
