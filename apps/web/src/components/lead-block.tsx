import { Button, Group, Paper, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { IconPlus } from './icons.ts';

/**
 * A card on a lead's page for the records made from the lead (its viewings, its deals): a title, a
 * button that starts one from this lead, "none yet" once they are loaded and there are none, and
 * the records themselves (the children).
 */
export function LeadBlock({ testId, title, addTo, addLabel, empty, children }: {
  testId: string;
  title: string;
  /** Where the button goes: the new record's page, started from this lead. */
  addTo: string;
  addLabel: string;
  /** The "none yet" text, shown when it is given (the caller gives it when loaded with none). */
  empty?: string | null;
  children: ReactNode;
}) {
  return (
    <Paper withBorder p="sm" data-testid={testId}>
      <Group justify="space-between" mb="xs">
        <Title order={3} size="h5">
          {title}
        </Title>
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
