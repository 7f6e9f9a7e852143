import { queryOptions } from '@tanstack/react-query';
import type { TShortlistSend } from '@crm/contract';
import { SHORTLIST } from '@crm/contract/resources';
import { call } from '../../../lib/api.ts';

/** GET /api/lead/{id}/shortlists: what was sent to the lead's client, with the answers. */
export const leadShortlistsQuery = (leadId: number) =>
  queryOptions({
    queryKey: ['lead', leadId, 'shortlists'] as const,
    queryFn: ({ signal }) => call(SHORTLIST.calls.list, { params: { id: leadId } }, { signal }),
  });

/** POST /api/lead/{id}/shortlist: mails the chosen properties, or answers the link to copy. */
export const sendShortlist = (leadId: number, body: TShortlistSend) => call(SHORTLIST.calls.send, { params: { id: leadId }, body });

/** POST /api/lead/{id}/shortlist/{shortlistId}/withdraw: the link stops working; answers the list again. */
export const withdrawShortlist = (leadId: number, shortlistId: number) => call(SHORTLIST.calls.withdraw, { params: { id: leadId, shortlistId } });

/** POST /api/lead/{id}/shortlist/{shortlistId}/again: a new link for the same properties, the old one withdrawn. */
export const sendShortlistAgain = (leadId: number, shortlistId: number) => call(SHORTLIST.calls.again, { params: { id: leadId, shortlistId } });
