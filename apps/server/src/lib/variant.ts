import type { FastifyRequest } from 'fastify';
import type { TAppVariant } from '@crm/contract';
import type { Config } from '../config.ts';

/**
 * The app a request is for: the payments-only variant when the flag (PAYMENTS_ONLY) is set, or
 * when the request's host is exactly the payments host (PAYMENTS_HOST, letter case aside; with a
 * port in the setting the port must match too). Behind a trusted proxy the forwarded host counts.
 * The variant is what the web app shows; who may call what stays with the routes' access rules.
 */
export function appVariant(config: Pick<Config, 'paymentsHost' | 'paymentsOnly'>, req: Pick<FastifyRequest, 'host' | 'hostname'>): TAppVariant {
  if (config.paymentsOnly) return 'payments';
  const wanted = config.paymentsHost;
  if (!wanted) return 'crm';
  const asked = (wanted.includes(':') ? req.host : req.hostname)?.toLowerCase();
  return asked === wanted ? 'payments' : 'crm';
}
