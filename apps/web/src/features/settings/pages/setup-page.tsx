import { Stack, Text, Title } from '@mantine/core';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { useNavigate } from 'react-router';
import { SiteCard } from '../components/site-card.tsx';
import { SHELL, href } from '@crm/contract/resources';

/**
 * /Settings/Setup (office administrators; opened on the first sign-in until done): the agency's
 * details clients see, each skippable, saved with the version guard; Save or Skip marks it done.
 */
export function SetupPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Stack gap="md" maw={800} data-testid="setup-page">
      <Title order={2}>{t('settings.ui.setup.title')}</Title>
      <Text>{t('settings.ui.setup.intro')}</Text>
      <SiteCard setup={{ onDone: () => void navigate(href(SHELL.screens.home)) }} />
    </Stack>
  );
}
