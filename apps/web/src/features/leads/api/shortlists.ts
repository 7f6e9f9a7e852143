import { queryOptions } from '@tanstack/react-query';
import type { TShortlistList, TShortlistSend, TShortlistSent } from '@crm/contract';
import { api } from '../../../lib/api.ts';

/** GET /api/lead/{id}/shortlists: what was sent to the lead's client, with the answers. */
export const leadShortlistsQuery = (leadId: number) =>
  queryOptions({
    queryKey: ['lead', leadId, 'shortlists'] as const,
    queryFn: ({ signal }) => api<TShortlistList>(`/api/lead/${leadId}/shortlists`, { signal }),
  });

/** POST /api/lead/{id}/shortlist: mails the chosen properties, or answers the link to copy. */
export const sendShortlist = (leadId: number, body: TShortlistSend) => api<TShortlistSent>(`/api/lead/${leadId}/shortlist`, { body });

/** POST /api/lead/{id}/shortlist/{shortlistId}/withdraw: the link stops working; answers the list again. */
export const withdrawShortlist = (leadId: number, shortlistId: number) => api<TShortlistList>(`/api/lead/${leadId}/shortlist/${shortlistId}/withdraw`, { method: 'POST' });

/** POST /api/lead/{id}/shortlist/{shortlistId}/again: a new link for the same properties, the old one withdrawn. */
export const sendShortlistAgain = (leadId: number, shortlistId: number) => api<TShortlistSent>(`/api/lead/${leadId}/shortlist/${shortlistId}/again`, { method: 'POST' });
