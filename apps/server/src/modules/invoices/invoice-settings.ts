import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import { isValidGreekVat, type TInvoiceSettings, type ZInvoiceSettingsEdit } from '@crm/contract';
import type { Db, Tx } from '../../db/client.ts';
import { conflict, fieldError, requireVersion } from '../../lib/errors.ts';
import { logAction, type Actor } from '../../lib/audit.ts';
import { openSecret, sealSecret, secretKey } from '../../lib/secret-box.ts';

/** The action log's entity of the agency's tax data and myDATA credentials. */
export const INVOICE_SETTINGS_LOG_ENTITY = 'InvoiceSettings';

type Stored = { vatNumber: string | null; branch: number; userId: string | null; sealedKey: string | null; version: number; canTransmit: boolean };

/** The one row of settings (made by the migration); `canTransmit` when the user id and the key are both set. */
export async function loadInvoiceSettings(db: Db | Tx): Promise<Stored> {
  const r = (await db.execute(sql`select * from invoice_settings where id = 1`)).rows[0] as Record<string, unknown> | undefined;
  const userId = (r?.mydata_user_id as string | null) ?? null;
  const sealedKey = (r?.mydata_key as string | null) ?? null;
  return { vatNumber: (r?.vat_number as string | null) ?? null, branch: Number(r?.branch ?? 0), userId, sealedKey, version: Number(r?.version ?? 1), canTransmit: !!userId && !!sealedKey };
}

/** The myDATA credentials in clear, for the transmission only; null when not set or sealed with another key. */
export function mydataCredentials(app: FastifyInstance, s: Stored): { userId: string; key: string } | null {
  const key = secretKey(app.config);
  if (!s.userId || !s.sealedKey || !key) return null;
  try {
    return { userId: s.userId, key: openSecret(key, s.sealedKey) };
  } catch {
    return null;
  }
}

const answer = (app: FastifyInstance, s: Stored): TInvoiceSettings => ({ vatNumber: s.vatNumber, branch: s.branch, userId: s.userId, keySet: !!s.sealedKey, endpoint: app.config.mydataUrl, version: s.version });

export async function getInvoiceSettings(app: FastifyInstance): Promise<TInvoiceSettings> {
  return answer(app, await loadInvoiceSettings(app.db));
}

/**
 * POST /api/Invoice/settings: the agency's ΑΦΜ (check digit), branch, myDATA user id and key (version
 * guard). The key is sealed (AES-256-GCM with MAIL_SECRET_KEY, decision 078) and never answered; a
 * blank one keeps the stored key. Logged without the key.
 */
export async function saveInvoiceSettings(app: FastifyInstance, actor: Actor, body: z.output<typeof ZInvoiceSettingsEdit>): Promise<TInvoiceSettings> {
  return app.db.transaction(async (tx) => {
    await tx.execute(sql`select 1 from invoice_settings where id = 1 for update`);
    const s = await loadInvoiceSettings(tx);
    if (s.version !== requireVersion(body.version)) throw conflict(answer(app, s));
    const vat = (body.vatNumber ?? '').replace(/\s+/g, '') || null;
    if (vat && !isValidGreekVat(vat)) throw fieldError('vatNumber', 'invoices.vatInvalid');
    const userId = body.userId?.trim() || null;
    let sealed = s.sealedKey;
    const typed = body.subscriptionKey?.trim();
    if (body.clearKey) sealed = null;
    else if (typed) {
      const key = secretKey(app.config);
      if (!key) throw fieldError('subscriptionKey', 'invoices.noSecretKey');
      sealed = sealSecret(key, typed);
    }
    await tx.execute(sql`update invoice_settings set vat_number = ${vat}, branch = ${body.branch}, mydata_user_id = ${userId}, mydata_key = ${sealed},
      modified_on = now(), version = version + 1 where id = 1`);
    await logAction(tx, actor, {
      action: 'Update',
      entity: INVOICE_SETTINGS_LOG_ENTITY,
      entityId: 1,
      data: { vatNumber: vat, branch: body.branch, userId, keyChanged: sealed !== s.sealedKey },
    });
    return answer(app, await loadInvoiceSettings(tx));
  });
}
