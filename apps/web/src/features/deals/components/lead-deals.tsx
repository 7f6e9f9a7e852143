import { Anchor, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from '../../../lib/use-translation.tsx';
import { Link } from 'react-router';
import { LeadBlock } from '../../../components/lead-block.tsx';
import { formatMoney } from '../../../lib/format.ts';
import { dealsOfQuery } from '../api/deals.ts';
import { DEAL, href } from '@crm/contract/resources';

/** The deals made from a lead, on the lead's page, with a way to start one from it. */
export function LeadDeals({ leadId }: { leadId: number }) {
  const { t } = useTranslation();
  const q = useQuery(dealsOfQuery({ demandId: leadId }));
  const add = href(DEAL.screens.add, undefined, { demandId: leadId });
  return (
    <LeadBlock testId="lead-deals" title={t('deals.ui.ofLead')} add={[add, t('deals.ui.addFromLead')]} items={q.data?.items} none={t('deals.ui.noneOfLead')}>
      <Stack gap={4}>
        {q.data?.items.map((d) => (
          <Anchor key={d.id} component={Link} to={href(DEAL.screens.view, { id: d.id })} size="sm" data-testid="lead-deal">
            #{d.id} · {d.type} · {d.stage}
            {d.objectReferenceNumber ? ` · #${d.objectReferenceNumber}` : ''}
            {(d.price ?? d.askingPrice) != null ? ` · ${formatMoney(d.price ?? d.askingPrice)}` : ''}
          </Anchor>
        ))}
      </Stack>
    </LeadBlock>
  );
}
