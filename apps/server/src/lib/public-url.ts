import type { FastifyInstance } from 'fastify';

/**
 * The address the public reaches this CRM at (no trailing slash): what absolute links that leave
 * the machine are built on (the portal feed's listing and photo addresses, links in mail). Today
 * PUBLIC_URL (config.ts: else http://localhost:PORT, which the start-up log warns of); a public
 * address stored in the settings will be read here, so every caller gets it at once. Never the
 * request's Host. Asynchronous for that reason.
 */
export async function publicBaseUrl(app: FastifyInstance): Promise<string> {
  return app.config.publicUrl.replace(/\/+$/, '');
}
