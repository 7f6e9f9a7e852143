import { useNavigate, useParams } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { AddingRecord } from '../../../components/adding-record.tsx';
import { addLead, justAddedLeads, leadKeys } from '../api/leads.ts';
import { LEAD, href } from '@crm/contract/resources';

/** /Leads/Add and /Leads/Add/{accountId}: creates the lead at once and opens it in expanded edit. */
export function LeadAddPage() {
  const navigate = useNavigate();
  const params = useParams();
  const client = useQueryClient();
  const accountId = params.id ? Number(params.id) : undefined;
  const forAccount = accountId && Number.isInteger(accountId) && accountId > 0 ? accountId : undefined;
  return (
    <AddingRecord
      key={forAccount ?? 0}
      testId="lead"
      add={async (changeKey) => (await addLead(forAccount, changeKey)).id}
      onAdded={(id) => {
        justAddedLeads.add(id);
        void client.invalidateQueries({ queryKey: leadKeys.lists });
        void client.invalidateQueries({ queryKey: ['account'] });
        navigate(href(LEAD.screens.view, { id, viewMode: 2 }), { replace: true });
      }}
    />
  );
}
