import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { API_KEY_API, WEBHOOK_API } from '@crm/contract';
import { API_KEY, WEBHOOK } from '@crm/contract/resources';
import { OFFICE_ADMIN } from '../../plugins/auth.ts';
import { okRoute, registerCalls } from '../../lib/calls.ts';
import { createApiKey, createWebhook, deleteWebhook, listApiKeys, listDeliveries, listWebhooks, resendDelivery, revokeApiKey, setWebhookEnabled } from './integrations.service.ts';
import { sendEndpoint } from './webhook-send.ts';
import { sealOldWebhookSecrets } from './webhook-secret.ts';
import { WEBHOOK_JOB, WEBHOOK_JOB_ATTEMPTS } from './webhook-queue.ts';

const caller = (req: FastifyRequest) => ({ userId: req.user!.id, actor: req.actor });

/**
 * API keys and webhooks (issue 48, decision 080): office admins make, list and revoke keys, and
 * register webhook endpoints, see their deliveries and send one again. The deliveries themselves
 * go out through the job runner (`webhooks.send`, one job per endpoint).
 */
export const integrationsRoutes = fp(
  async (app: FastifyInstance) => {
    app.jobs.register<{ endpointId: number }>(WEBHOOK_JOB, async (payload, ctx) => sendEndpoint(app, payload.endpointId, ctx), {
      maxAttempts: WEBHOOK_JOB_ATTEMPTS,
      backoffSeconds: app.config.integrations.webhookRetrySeconds,
    });
    // Secrets a version before sealing kept in the clear are sealed once the app is ready.
    app.addHook('onReady', async () => {
      const n = await sealOldWebhookSecrets(app);
      if (n) app.log.info({ webhooks: n }, 'webhook signing secrets sealed');
    });
    registerCalls(
      app,
      API_KEY.calls,
      API_KEY_API,
      {
        list: { access: OFFICE_ADMIN, handler: async () => ({ items: await listApiKeys(app) }) },
        create: { access: OFFICE_ADMIN, handler: async (req) => createApiKey(app, caller(req), req.body) },
        revoke: { access: OFFICE_ADMIN, handler: async (req) => revokeApiKey(app, caller(req), req.params.id) },
      },
      { tags: ['apiKeys'] },
    );
    registerCalls(
      app,
      WEBHOOK.calls,
      WEBHOOK_API,
      {
        list: { access: OFFICE_ADMIN, handler: async () => ({ items: await listWebhooks(app) }) },
        create: { access: OFFICE_ADMIN, handler: async (req) => createWebhook(app, caller(req), req.body) },
        setEnabled: { access: OFFICE_ADMIN, handler: async (req) => setWebhookEnabled(app, caller(req), req.params.id, req.body) },
        remove: okRoute(OFFICE_ADMIN, (req) => deleteWebhook(app, caller(req), req.params.id)),
        deliveries: { access: OFFICE_ADMIN, handler: async (req) => ({ items: await listDeliveries(app, req.params.id) }) },
        resend: { access: OFFICE_ADMIN, handler: async (req) => resendDelivery(app, caller(req), req.params.id) },
      },
      { tags: ['webhooks'] },
    );
  },
  { name: 'integrations' },
);
