import { Badge, Button, Group, Paper, Text, Title, VisuallyHidden } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { IconPlus } from './icons.ts';

/**
 * A card on a lead's page for the records made from the lead (its viewings, its deals): a title, a
 * button that starts one from this lead, "none yet" once they are loaded and there are none, and
 * the records themselves (the children). With `count`, how many there are in all stands by the title
 * (said as `countLabel` to screen readers), for a block that shows only the newest of them.
 */
export function LeadBlock({ testId, title, addTo, addLabel, empty, count, countLabel, children }: {
  testId: string;
  title: string;
  /** Where the button goes: the new record's page, started from this lead. */
  addTo: string;
  addLabel: string;
  /** The "none yet" text, shown when it is given (the caller gives it when loaded with none). */
  empty?: string | null;
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
        <Button component={Link} to={addTo} size="compact-sm" variant="light" leftSection={<IconPlus size={14} />}>
          {addLabel}
        </Button>
      </Group>
      {empty && (
        <Text size="sm" c="dimmed">
          {empty}
        </Text>
      )}
      {children}
    </Paper>
  );
}
