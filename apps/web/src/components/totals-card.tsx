import { Card, SimpleGrid, Text, type SimpleGridProps } from '@mantine/core';
import { useId } from 'react';
import { formatAmount } from '../lib/format.ts';

/**
 * A list's totals under it, over every row its filter matches (not the page): a title saying over how
 * many, each total as a label over its exact amount (decimal text from the server), and an optional
 * note of what is left out (`${testId}-note`). Each amount carries the test id `sumTestId(key)`.
 */
export function TotalsCard({
  title,
  totals,
  note,
  cols,
  testId,
  sumTestId,
  className,
}: {
  title: string;
  totals: readonly { key: string; label: string; amount: string }[];
  note?: string | null;
  cols: SimpleGridProps['cols'];
  testId: string;
  sumTestId: (key: string) => string;
  className?: string;
}) {
  // A group named by its title (a card is a plain div, which takes no name of its own).
  const titleId = useId();
  return (
    <Card withBorder padding="sm" className={className} data-testid={testId} role="group" aria-labelledby={titleId}>
      <Text size="sm" c="dimmed" mb={4} id={titleId}>
        {title}
      </Text>
      <SimpleGrid cols={cols} spacing="sm">
        {totals.map(({ key, label, amount }) => (
          <div key={key}>
            <Text size="xs" c="dimmed">
              {label}
            </Text>
            <Text fw={600} data-testid={sumTestId(key)}>
              {formatAmount(amount)}
            </Text>
          </div>
        ))}
      </SimpleGrid>
      {note && (
        <Text size="xs" c="dimmed" mt={6} data-testid={`${testId}-note`}>
          {note}
        </Text>
      )}
    </Card>
  );
}
