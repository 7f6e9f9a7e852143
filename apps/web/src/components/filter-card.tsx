import { Badge, Button, Card, Collapse } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { useTranslation } from '../lib/use-translation.tsx';
import { IconFilter } from './icons.ts';
import { useMedia } from '../lib/first-paint.ts';

/**
 * A list's filter card. On a phone, and on a screen 48em (768 px) high or less (a 1366x768 laptop,
 * a phone held sideways), it folds away behind a "Filters" button (marked when a filter is on), so
 * the list's rows are in view at once; on a wider and taller screen it is always open.
 */
export function FilterCard({ active, testId, children }: { active: boolean; testId: string; children: ReactNode }) {
  const { t } = useTranslation();
  const wide = useMedia('(min-width: 48em)', true);
  const short = useMedia('(max-height: 48em)', false);
  const [opened, { toggle }] = useDisclosure(false);
  if (wide && !short) {
    return (
      <Card withBorder padding="sm" data-testid={testId}>
        {children}
      </Card>
    );
  }
  return (
    <Card withBorder padding="xs" data-testid={testId}>
      <Button
        variant={active ? 'light' : 'subtle'}
        leftSection={<IconFilter size={16} />}
        rightSection={active ? <Badge size="xs">{t('accounts.ui.filter.on')}</Badge> : null}
        onClick={toggle}
        aria-expanded={opened}
        fullWidth={!wide}
        justify="flex-start"
        data-testid={`${testId}-toggle`}
      >
        {t('accounts.ui.filter.title')}
      </Button>
      <Collapse expanded={opened}>
        <div style={{ paddingTop: 'var(--mantine-spacing-xs)' }}>{children}</div>
      </Collapse>
    </Card>
  );
}
