import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AppError } from '../lib/errors.ts';
import { appVariant, isPaymentsAppRoute } from '../lib/variant.ts';

/**
 * One app per host (decision 019): where the payments-only app is served (PAYMENTS_HOST, or every
 * host with PAYMENTS_ONLY), a route outside it answers 404 before anything else is looked at (no
 * sign-in, no body): to anyone there, whatever token they send, the CRM's other calls do not exist.
 * Registered before the sign-in check.
 */
export const paymentsHostPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('onRequest', async (req) => {
    if (appVariant(app.config, req) !== 'payments') return;
    const url = req.routeOptions.url;
    // An address no route has is answered 404 by the router itself.
    if (url === undefined || isPaymentsAppRoute(url)) return;
    throw new AppError(404, url.startsWith('/api') ? 'errors.noSuchCall' : 'errors.notFound');
  });
});
