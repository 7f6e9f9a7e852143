import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * Helmet's security headers (CSP, HSTS, nosniff, frame and referrer rules...) on every answer. They
 * do not depend on the request, so helmet runs once at start-up against a stand-in response and the
 * headers it set are sent as they are. (@fastify/helmet built a new helmet middleware, parsing every
 * CSP directive again, for each request: a twentieth of a millisecond of every API call.)
 */
export function securityHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  let failed: unknown;
  helmet(options)({} as never, res as never, (err?: unknown) => {
    failed = err;
  });
  if (failed) throw failed;
  return headers;
}

export const securityHeadersPlugin = fp(async (app: FastifyInstance, options: HelmetOptions) => {
  const headers = securityHeaders(options);
  app.addHook('onRequest', (_req, reply, done) => {
    reply.headers(headers);
    done();
  });
});
