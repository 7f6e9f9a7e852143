import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from '../lib/use-translation.tsx';
import { Link } from 'react-router';
import { SHELL, href } from '@crm/contract/resources';

/**
 * A screen that has nothing to show (not found, not built yet): what it means, and the way home;
 * with `onBack`, the way back first.
 */
export function NoticePanel({ icon, title, body, testId, onBack }: { icon?: ReactNode; title: string; body: string; testId?: string; onBack?: () => void }) {
  const { t } = useTranslation();
  const home = (
    <Button component={Link} to={href(SHELL.screens.home)} variant="light">
      {t('comingSoon.home')}
    </Button>
  );
  return (
    <Paper withBorder p="xl" maw={640} mx="auto" mt="lg" data-testid={testId}>
      <Stack align="center" gap="md">
        {icon}
        <Title order={2}>{title}</Title>
        <Text ta="center" c="dimmed">
          {body}
        </Text>
        {onBack ? (
          <Group>
            <Button variant="default" onClick={onBack}>
              {t('notFound.back')}
            </Button>
            {home}
          </Group>
        ) : (
          home
        )}
      </Stack>
    </Paper>
  );
}
