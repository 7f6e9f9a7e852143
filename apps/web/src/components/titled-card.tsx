import type { ReactNode } from 'react';
import { Card, Stack, Text, Title } from '@mantine/core';

/**
 * A bordered card that opens with its title and, under it, a dimmed line that says what the card
 * is for (the settings' and the import's cards); its content follows in the same column.
 */
export function TitledCard({ title, hint, testId, order = 3, children }: { title: ReactNode; hint?: ReactNode; testId?: string; order?: 2 | 3; children: ReactNode }) {
  return (
    <Card withBorder padding="md" data-testid={testId}>
      <Stack gap="sm">
        <Title order={order} size="h4">
          {title}
        </Title>
        {hint !== undefined && (
          <Text size="sm" c="dimmed">
            {hint}
          </Text>
        )}
        {children}
      </Stack>
    </Card>
  );
}
