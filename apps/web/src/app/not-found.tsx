import { Button, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

export function NotFound() {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="xl" maw={640} mx="auto" mt="lg">
      <Stack align="center">
        <Title order={2}>{t('title.notFound')}</Title>
        <Text c="dimmed" ta="center">
          {t('notFound.body')}
        </Text>
        <Button component={Link} to="/CRM" variant="light">
          {t('comingSoon.home')}
        </Button>
      </Stack>
    </Paper>
  );
}
