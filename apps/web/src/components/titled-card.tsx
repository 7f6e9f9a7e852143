import type { CSSProperties, FormEventHandler, ReactNode } from 'react';
import { Card, Stack, Text, Title } from '@mantine/core';

/**
 * A bordered card that opens with its title and, under it, a dimmed line that says what the card
 * is for (the settings' and the import's cards); its content follows in the same column. A card
 * that is a form (`onSubmit`) holds it whole, so Enter in any of its fields submits it; `maw` and
 * `id` are the card's width and anchor (the settings page's links).
 */
export function TitledCard({ title, hint, testId, order = 3, maw, id, onSubmit, children }: { title: ReactNode; hint?: ReactNode; testId?: string; order?: 2 | 3; maw?: number; id?: string; onSubmit?: FormEventHandler<HTMLFormElement>; children: ReactNode }) {
  const content = (
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
  );
  return (
    <Card withBorder padding="md" data-testid={testId} maw={maw} id={id}>
      {onSubmit ? (
        <form onSubmit={onSubmit} noValidate>
          {content}
        </form>
      ) : (
        content
      )}
    </Card>
  );
}

/**
 * A record's section (the view's and the edit form's): a bordered card under its small heading, and
 * what it says when it has nothing to show (`empty`, a dimmed line above the content).
 */
export function SectionCard({ title, testId, id, style, empty, children }: { title: ReactNode; testId?: string; id?: string; style?: CSSProperties; empty?: ReactNode; children?: ReactNode }) {
  return (
    <Card withBorder padding="sm" data-testid={testId} id={id} style={style}>
      <Title order={3} size="h5" mb="xs">
        {title}
      </Title>
      {empty ? (
        <Text size="sm" c="dimmed">
          {empty}
        </Text>
      ) : null}
      {children}
    </Card>
  );
}
