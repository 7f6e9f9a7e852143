import type { TApiKeyCreate, TWebhookCreate } from '@crm/contract';
import { API_KEY, WEBHOOK } from '@crm/contract/resources';
import { call } from '../../../lib/api.ts';

/** The API keys' and webhooks' calls (decision 080), for the settings screens. */
export const apiKeysQuery = () => ({
  queryKey: ['apiKeys'] as const,
  queryFn: ({ signal }: { signal: AbortSignal }) => call(API_KEY.calls.list, {}, { signal }),
});
export const createApiKey = (body: TApiKeyCreate) => call(API_KEY.calls.create, { body });
export const revokeApiKey = (id: number) => call(API_KEY.calls.revoke, { params: { id } });

export const webhooksQuery = () => ({
  queryKey: ['webhooks'] as const,
  queryFn: ({ signal }: { signal: AbortSignal }) => call(WEBHOOK.calls.list, {}, { signal }),
});
export const deliveriesQuery = (id: number) => ({
  queryKey: ['webhooks', id, 'deliveries'] as const,
  queryFn: ({ signal }: { signal: AbortSignal }) => call(WEBHOOK.calls.deliveries, { params: { id } }, { signal }),
});
export const createWebhook = (body: TWebhookCreate) => call(WEBHOOK.calls.create, { body });
export const setWebhookEnabled = (id: number, enabled: boolean, version: number) => call(WEBHOOK.calls.setEnabled, { params: { id }, body: { enabled, version } });
export const deleteWebhook = (id: number) => call(WEBHOOK.calls.remove, { params: { id } });
export const resendDelivery = (id: number) => call(WEBHOOK.calls.resend, { params: { id } });
