import { Alert, Card, Skeleton, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { describeError } from '../lib/errors.ts';

/**
 * A card holding what a query found: its error, a placeholder while it loads, what an empty
 * answer means (with `emptyTestId`), or the content.
 */
export function QueryCard({ query, empty, emptyText, emptyTestId, children }: { query: { isError: boolean; isPending: boolean; error: unknown }; empty: boolean; emptyText: string; emptyTestId: string; children: ReactNode }) {
  return (
    <Card withBorder>
      {query.isError ? (
        <Alert color="red">{describeError(query.error).message}</Alert>
      ) : query.isPending ? (
        <Skeleton h={60} />
      ) : empty ? (
        <Text c="dimmed" data-testid={emptyTestId}>
          {emptyText}
        </Text>
      ) : (
        children
      )}
    </Card>
  );
}
