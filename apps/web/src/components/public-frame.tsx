import { Anchor, Box, Center, Group, Paper, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from '../lib/use-translation.tsx';
import { LanguageButtons } from './language-buttons.tsx';
import { variantStore } from '../lib/variant.ts';

/**
 * The frame of the pages without layout (sign-in, forgotten and reset password). Its logo depends
 * on the host: the payments host shows the payments brand, others the CRM brand with the Greek motto.
 */
export function PublicFrame({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const payments = variantStore.use() === 'payments';
  return (
    <Box component="main" mih="100vh" p="md" style={{ background: 'linear-gradient(160deg, var(--mantine-color-blue-0), var(--mantine-color-gray-0))' }}>
      <Group justify="flex-end" component="nav" aria-label={t('nav.language')}>
        <LanguageButtons />
      </Group>
      <Center mt={{ base: 'md', sm: 60 }}>
        <Stack w="100%" maw={420} gap="lg">
          {payments ? (
            <Stack gap={2} align="center" data-testid="login-logo" data-variant="payments">
              <Text fz={34} fw={700} lh={1.3} c="teal.9" data-testid="login-brand">
                {t('app.paymentsBrand')}
              </Text>
            </Stack>
          ) : (
            <Stack gap={2} align="center" data-testid="login-logo" data-variant="crm">
              <Text fz={34} fw={700} lh={1.3} c="blue.8" data-testid="login-brand">
                {t('app.brand')}
              </Text>
              <Text c="dimmed" fs="italic" lang="el">
                {t('app.motto')}
              </Text>
            </Stack>
          )}
          <Paper withBorder shadow="sm" p="xl" radius="md">
            {children}
          </Paper>
          <Text ta="center" size="xs">
            <Anchor href="/terms.htm" target="_blank" rel="noopener">
              {t('login.terms')}
            </Anchor>
          </Text>
        </Stack>
      </Center>
    </Box>
  );
}
