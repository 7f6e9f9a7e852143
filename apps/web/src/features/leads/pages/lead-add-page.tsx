import { AddingRecord } from '../../../components/adding-record.tsx';
import { addLead, justAddedLeads, leadKeys } from '../api/leads.ts';
import { LEAD, href } from '@crm/contract/resources';

/** /Leads/Add and /Leads/Add/{accountId}: creates the lead at once and opens it in expanded edit. */
export function LeadAddPage() {
  return (
    <AddingRecord
      param="id"
      testId="lead"
      add={async (changeKey, forAccount) => (await addLead(forAccount, changeKey)).id}
      added={justAddedLeads}
      refresh={() => [leadKeys.lists, ['account']]}
      to={(id) => href(LEAD.screens.view, { id, viewMode: 2 })}
    />
  );
}
