import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { AppError } from '../../lib/errors.ts';
import { openSecret, sealSecret, secretKey } from '../../lib/secret-box.ts';

/**
 * A webhook's signing secret is kept sealed with the server's secret key, as a mailbox's passwords
 * are (AES-256-GCM, decision 078): a copy of the database or a backup does not let anyone sign as
 * the CRM. A setup with no key (DATABASE_URL without MAIL_SECRET_KEY) makes no webhook.
 */
export function sealWebhookSecret(app: FastifyInstance, secret: string): string {
  const key = secretKey(app.config);
  if (!key) throw new AppError(409, 'webhooks.noSecretKey');
  return sealSecret(key, secret);
}

/** The secret to sign with (one stored before secrets were sealed is still in the clear). */
export function openWebhookSecret(app: FastifyInstance, stored: string): string {
  if (!stored.startsWith('v1:')) return stored;
  const key = secretKey(app.config);
  if (!key) throw new Error('MAIL_SECRET_KEY is not set: the webhook secrets cannot be read');
  return openSecret(key, stored);
}

/**
 * Seals the secrets kept in the clear by a version before secrets were sealed (when this setup has
 * its key): run once at start; an instance that finds a row changed by another leaves it.
 */
export async function sealOldWebhookSecrets(app: FastifyInstance): Promise<number> {
  const key = secretKey(app.config);
  if (!key) return 0;
  const old = await app.db.execute(sql`select id, secret from webhook_endpoints where secret not like 'v1:%'`);
  let n = 0;
  for (const r of old.rows as { id: number; secret: string }[]) {
    const done = await app.db.execute(sql`update webhook_endpoints set secret = ${sealSecret(key, r.secret)} where id = ${r.id} and secret = ${r.secret}`);
    n += done.rowCount ?? 0;
  }
  return n;
}
