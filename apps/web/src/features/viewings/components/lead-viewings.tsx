import { Anchor, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LeadBlock } from '../../../components/lead-block.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { leadViewingsQuery } from '../api/viewings.ts';

/**
 * The viewings of a lead, on the lead's page, newest first: each as "#51 · 26/11/2026, 18:30 ·
 * result" (a link to it), with every property shown there, what the client made of it and said of
 * it ("#0123 · Not interested — “too dark”"); and a way to arrange the next one.
 */
export function LeadViewings({ leadId }: { leadId: number }) {
  const { t } = useTranslation();
  const q = useQuery(leadViewingsQuery(leadId));
  const items = q.data?.items ?? [];
  return (
    <LeadBlock
      testId="lead-viewings"
      title={t('viewings.ui.ofLead')}
      addTo={`/Viewing/Add?demandId=${leadId}`}
      addLabel={t('leads.ui.arrangeViewing')}
      empty={q.data && items.length === 0 ? t('viewings.ui.noneOfLead') : null}
    >
      <Stack gap="sm">
        {items.map((v) => (
          <div key={v.id} data-testid="lead-viewing">
            <Anchor component={Link} to={`/Viewing/${v.id}`} size="sm" fw={600} data-testid="lead-viewing-link">
              {[`#${v.id}`, formatDateTime(v.dateOfViewing) || t('viewings.ui.notSet'), v.result].filter(Boolean).join(' · ')}
            </Anchor>
            <Stack gap={2} component="ul" mt={4} mb={0} style={{ listStyle: 'none', padding: 0 }}>
              {v.objects.map((o) => (
                <li key={o.objectId} data-testid="lead-viewing-object">
                  <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                    <Anchor component={Link} to={`/Objects/View/${o.objectId}`} underline="always" inherit>
                      #{o.objectReferenceNumber}
                    </Anchor>
                    {o.result ? ` · ${o.result}` : ''}
                  </Text>
                  {o.comment && (
                    <Text size="sm" c="dimmed" pl="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} data-testid="lead-viewing-comment">
                      “{o.comment}”
                    </Text>
                  )}
                </li>
              ))}
            </Stack>
          </div>
        ))}
      </Stack>
    </LeadBlock>
  );
}
