import { Alert, Box, Container, Group, Image, Loader, Stack, Text, Title, type MantineSize } from '@mantine/core';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from '../lib/use-translation.tsx';
import { cultureOf, type TCulture } from '@crm/contract/constants';
import { LanguageButtons } from './language-buttons.tsx';
import { changeLanguage, currentCulture, languageChosen } from '../lib/i18n.ts';

/** The language setting of each culture a linked page may be written in. */
const LANGUAGE_OF = { en: 'en-UK', el: 'el', ru: 'ru' } as const;

/**
 * The data of a page opened from a mailed link, in the reader's language: a reader who has not
 * chosen one reads it in the language the data names (the client's, the owner's, the document's).
 * While the interface switches, there is no data yet; `title` becomes the tab's title, followed
 * by the agency's name once known.
 */
export function useLinkPageData<T extends { language?: TCulture | null }>(loaded: T | undefined, title: string, agencyOf: (data: T) => string) {
  const culture = currentCulture();
  const [cannotSwitch, setCannotSwitch] = useState(false);
  const language = loaded?.language ?? null;
  const switchTo = language && !cannotSwitch && !languageChosen() && cultureOf(language) !== culture ? LANGUAGE_OF[language] : null;
  useEffect(() => {
    if (switchTo) changeLanguage(switchTo, { chosen: false }).catch(() => setCannotSwitch(true));
  }, [switchTo]);
  const data = switchTo ? undefined : loaded;
  const agency = data ? agencyOf(data) : null;
  useEffect(() => {
    document.title = agency ? `${title} · ${agency}` : title;
  }, [title, agency]);
  return { data, switching: switchTo !== null };
}

/** Why a linked page shows nothing: its heading and message, and the test's handle on it. */
export type TLinkPageError = { testId: string; title: string; message: string; attrs?: Record<string, string> };

/**
 * The frame of a page opened from a mailed link without signing in (shortlist, owner's report,
 * signing): the agency in the header with the language buttons, then a loader, the error or the page.
 */
export function LinkPage({ size, agency, loading, error, children }: { size: MantineSize; agency: ReactNode; loading: boolean; error: TLinkPageError | null; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Box mih="100vh" bg="gray.0">
      <Box component="header" bg="white" style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}>
        <Container size={size} py="xs">
          <Group justify="space-between" gap="xs">
            {agency}
            <Group component="nav" aria-label={t('nav.language')}>
              <LanguageButtons />
            </Group>
          </Group>
        </Container>
      </Box>
      <Container size={size} py="md" component="main">
        {loading && <Loader size="sm" role="progressbar" aria-label={t('common.loading')} />}
        {error && (
          <Stack data-testid={error.testId} {...error.attrs}>
            <Title order={1} size="h3">
              {error.title}
            </Title>
            <Alert color="red" role="alert">
              {error.message}
            </Alert>
          </Stack>
        )}
        {children}
      </Container>
    </Box>
  );
}

/**
 * The agency as the linked pages' header shows it: its logo (when it has one) and its name, so the
 * client knows whose link this is.
 */
export function LinkPageAgency({ name, logo, testId }: { name: string | undefined; logo: string | null | undefined; testId: string }) {
  return (
    <Group gap="xs">
      {logo && <Image src={logo} alt="" h={36} w="auto" fit="contain" data-testid={`${testId}-logo`} />}
      <Text fw={700} fz="lg" data-testid={testId}>
        {name ?? ''}
      </Text>
    </Group>
  );
}
