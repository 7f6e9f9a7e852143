import { Badge, Button, Group, Paper, Text, Title, VisuallyHidden } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { IconPlus } from './icons.ts';

/**
 * A card on a lead's page for the records made from the lead (its viewings, its deals): a title, a
 * button that starts one from this lead (`add`: the new record's page and the button's text), the
 * records themselves (the children), and `none` once they are loaded (`items`) and there are none.
 * With `count`, how many there are in all stands by the title (said as `countLabel` to screen
 * readers), for a block that shows only the newest of them.
 */
export function LeadBlock({ testId, title, add, items, none, count, countLabel, children }: {
  testId: string;
  title: string;
  add: [to: string, label: string];
  /** The records shown (none: not loaded yet). */
  items: unknown[] | undefined;
  none: string;
  count?: number;
  countLabel?: string;
  children: ReactNode;
}) {
  return (
    <Paper withBorder p="sm" data-testid={testId}>
      <Group justify="space-between" mb="xs">
        <Group gap="xs">
          <Title order={3} size="h5">
            {title}
          </Title>
          {!!count && (
            <>
              <Badge variant="light" color="gray" aria-hidden data-testid={`${testId}-count`}>
                {count}
              </Badge>
              {countLabel && <VisuallyHidden>{countLabel}</VisuallyHidden>}
            </>
          )}
        </Group>
        <Button component={Link} to={add[0]} size="compact-sm" variant="light" leftSection={<IconPlus size={14} />}>
          {add[1]}
        </Button>
      </Group>
      {items?.length === 0 && (
        <Text size="sm" c="dimmed">
          {none}
        </Text>
      )}
      {children}
    </Paper>
  );
}
