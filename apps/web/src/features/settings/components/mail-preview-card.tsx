// The settings' preview of each kind of mail the CRM sends, in each language, before it is ever sent.
import { Box, Code, Group, Loader, Select, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { MAIL_KINDS, type TCulture, type TMailKind } from '@crm/contract/constants';
import { mailPreviewQuery } from '../api/settings.ts';
import { TitledCard } from '../../../components/titled-card.tsx';
import { CultureChoice } from '../../../components/culture-choice.tsx';
import { FailureAlert } from '../../../components/failure-alert.tsx';

/**
 * A kind of mail and a language picked; the subject, the HTML part in a sandboxed frame (no
 * scripts, no same origin: the mail's own markup cannot reach the CRM) and the plain-text part.
 */
export function MailPreviewCard() {
  const { t } = useTranslation();
  const [kind, setKind] = useState<TMailKind>('shortlist');
  const [language, setLanguage] = useState<TCulture>('el');
  const preview = useQuery(mailPreviewQuery(kind, language));
  const p = preview.data;
  return (
    <TitledCard title={t('mail.preview.title')} hint={t('mail.preview.hint')} testId="mail-preview-card" order={2}>
      <Group align="end" wrap="wrap">
        <Select
          label={t('mail.preview.kindLabel')}
          data={MAIL_KINDS.map((k) => ({ value: k, label: t(`mail.preview.kind.${k}`) }))}
          value={kind}
          onChange={(v) => v && setKind(v as TMailKind)}
          allowDeselect={false}
          data-testid="mail-preview-kind"
        />
        <CultureChoice id="mail-preview-language" label={t('mail.preview.languageLabel')} value={language} onChange={setLanguage} testId="mail-preview-language" />
      </Group>
      <FailureAlert failure={preview.error} />
      {!p && preview.isPending && <Loader size="sm" />}
      {p && (
        <Stack gap="xs">
          <Text size="sm">
            <Text span fw={600}>
              {t('mail.preview.subject')}:
            </Text>{' '}
            <span data-testid="mail-preview-subject">{p.subject}</span>
            <Text span c="dimmed">
              {' '}
              ({p.fromName})
            </Text>
          </Text>
          <Text size="sm" fw={600}>
            {t('mail.preview.html')}
          </Text>
          <Box style={{ border: '1px solid var(--mantine-color-gray-3)', borderRadius: 4, overflow: 'hidden' }}>
            <iframe title={t('mail.preview.frameTitle')} sandbox="" srcDoc={p.html} style={{ width: '100%', height: 520, border: 0, display: 'block' }} data-testid="mail-preview-html" />
          </Box>
          <Text size="sm" fw={600}>
            {t('mail.preview.text')}
          </Text>
          <Code block data-testid="mail-preview-text" style={{ whiteSpace: 'pre-wrap' }}>
            {p.text}
          </Code>
        </Stack>
      )}
    </TitledCard>
  );
}
