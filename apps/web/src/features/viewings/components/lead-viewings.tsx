import { Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { Link } from 'react-router';
import { LeadBlock } from '../../../components/lead-block.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { leadViewingsQuery } from '../api/viewings.ts';
import { OBJECT, VIEWING, href } from '@crm/contract/resources';

/**
 * The viewings of a lead, on the lead's page, newest first: each as "#51 · 26/11/2026, 18:30 ·
 * result" (a link to it), with every property shown there, what the client made of it and said of
 * it ("#0123 · Not interested — “too dark”"); and a way to arrange the next one. How many there are
 * stands by the title; the newest 20 come first and "Show more" adds the next 20 under them.
 */
export function LeadViewings({ leadId }: { leadId: number }) {
  const { t } = useTranslation();
  const q = useInfiniteQuery(leadViewingsQuery(leadId));
  // A viewing arranged meanwhile moves the pages along by one: each is listed once.
  const seen = new Set<number>();
  const items = (q.data?.pages ?? []).flatMap((p) => p.items).filter((v) => !seen.has(v.id) && seen.add(v.id));
  const total = q.data?.pages[q.data.pages.length - 1]?.totalRows;
  return (
    <LeadBlock
      testId="lead-viewings"
      title={t('viewings.ui.ofLead')}
      add={[href(VIEWING.screens.add, undefined, { demandId: leadId }), t('leads.ui.arrangeViewing')]}
      items={q.data && items}
      none={t('viewings.ui.noneOfLead')}
      count={total}
      countLabel={total ? t('viewings.ui.countOfLead', { count: total }) : undefined}
    >
      <Stack gap="sm">
        {items.map((v) => (
          <div key={v.id} data-testid="lead-viewing">
            <Anchor component={Link} to={href(VIEWING.screens.view, { id: v.id })} size="sm" fw={600} data-testid="lead-viewing-link">
              {[`#${v.id}`, formatDateTime(v.dateOfViewing) || t('viewings.ui.notSet'), v.result].filter(Boolean).join(' · ')}
            </Anchor>
            <Stack gap={2} component="ul" mt={4} mb={0} style={{ listStyle: 'none', padding: 0 }}>
              {v.objects.map((o) => (
                <li key={o.objectId} data-testid="lead-viewing-object">
                  <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                    <Anchor component={Link} to={href(OBJECT.screens.view, { id: o.objectId })} underline="always" inherit>
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
      {q.hasNextPage && total != null && (
        <Group justify="center" mt="sm">
          <Button variant="default" size="compact-sm" onClick={() => void q.fetchNextPage()} loading={q.isFetchingNextPage} data-testid="lead-viewings-more">
            {t('viewings.ui.showMoreOfLead', { shown: items.length, total })}
          </Button>
        </Group>
      )}
    </LeadBlock>
  );
}
