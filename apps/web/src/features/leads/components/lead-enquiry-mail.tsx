import { Anchor, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { MAIL } from '@crm/contract/resources';
import { call } from '../../../lib/api.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { MailMessage, who } from '../../../components/record-mail.tsx';
import { useSectionReady } from '../../../components/reveal.tsx';

/**
 * A lead made from a portal's enquiry mail (decision 082) says so, with the mail itself one click
 * away (read as on a client's record). Nothing at all for a lead that did not come by mail.
 */
export function LeadEnquiryMail({ leadId }: { leadId: number }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<number | null>(null);
  const q = useQuery({
    queryKey: ['mail', 'list', { enquiryOf: leadId }],
    queryFn: ({ signal }) => call(MAIL.calls.list, { query: { enquiryOf: leadId, perPage: 5 } }, { signal, background: true }),
  });
  useSectionReady('enquiry-mail', !q.isPending || q.fetchStatus === 'idle');
  const items = q.data?.items ?? [];
  if (!items.length) return null;
  return (
    <Paper withBorder p="sm" data-testid="lead-enquiry-mail">
      <Stack gap={4}>
        <Title order={3} size="h5">
          {t('enquiries.ui.title')}
        </Title>
        <Text size="sm">{t('enquiries.ui.text')}</Text>
        {items.map((m) => (
          <Text size="sm" key={m.id} data-testid="lead-enquiry-row">
            <b>{m.subject || t('mailbox.msg.noSubject')}</b>{' '}
            <Text span size="xs" c="dimmed">
              {who(m.from)} · {formatDateTime(m.date)}
            </Text>{' '}
            <Anchor component="button" type="button" size="sm" onClick={() => setOpen(m.id)} data-testid="lead-enquiry-open">
              {t('enquiries.ui.open')}
            </Anchor>
          </Text>
        ))}
      </Stack>
      {open !== null && <MailMessage id={open} of={{ leadId }} onClose={() => setOpen(null)} />}
    </Paper>
  );
}
