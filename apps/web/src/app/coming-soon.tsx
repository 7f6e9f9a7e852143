import { Button, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconTools } from '../components/icons.ts';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useRouteTitle } from '../lib/use-route-title.ts';

export function ComingSoon() {
  const { t } = useTranslation();
  const title = useRouteTitle();
  return (
    <Paper withBorder p="xl" maw={640} mx="auto" mt="lg" data-testid="coming-soon">
      <Stack align="center" gap="md">
        <ThemeIcon size={56} radius="xl" variant="light">
          <IconTools size={32} />
        </ThemeIcon>
        <Title order={2}>{t('comingSoon.title')}</Title>
        <Text ta="center" c="dimmed">
          {t('comingSoon.body', { screen: t(title) })}
        </Text>
        <Button component={Link} to="/CRM" variant="light">
          {t('comingSoon.home')}
        </Button>
      </Stack>
    </Paper>
  );
}
