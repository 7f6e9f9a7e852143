import { Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useGoBack } from './go-back.ts';

/** An unknown or deleted record: one clear state, with the way back, and nothing of the record's toolbar. */
export function RecordNotFound({ testId }: { testId: string }) {
  const { t } = useTranslation();
  const goBack = useGoBack();
  return (
    <Paper withBorder p="xl" maw={640} mx="auto" mt="lg" data-testid={testId}>
      <Stack align="center">
        <Title order={2}>{t('title.notFound')}</Title>
        <Text c="dimmed" ta="center">
          {t('notFound.record')}
        </Text>
        <Group>
          <Button variant="default" onClick={goBack}>
            {t('notFound.back')}
          </Button>
          <Button component={Link} to="/CRM" variant="light">
            {t('comingSoon.home')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
