import { and, eq } from 'drizzle-orm';
import type { TSiteSettings, TSiteSettingsUpdate } from '@crm/contract';
import type { Db } from '../../db/client.ts';
import { accounts, siteSettings } from '../../db/schema/index.ts';
import { logAction, type Actor } from '../../lib/audit.ts';
import { conflict, fieldError } from '../../lib/errors.ts';

/** The agency's details on its public site; each null when not set. */
export type TSiteContact = Omit<TSiteSettings, 'version' | 'enquirySourceId'>;

const FIELDS = ['name', 'phone', 'email', 'address'] as const;
const EMPTY: TSiteSettings = { name: null, phone: null, email: null, address: null, enquirySourceId: null, version: 1 };

/** The one row of site settings (made by migration 0035; the empty settings if it was ever lost). */
export async function getSiteSettings(db: Db): Promise<TSiteSettings> {
  const [row] = await db
    .select({ name: siteSettings.name, phone: siteSettings.phone, email: siteSettings.email, address: siteSettings.address, enquirySourceId: siteSettings.enquirySourceId, version: siteSettings.version })
    .from(siteSettings)
    .where(eq(siteSettings.id, 1));
  return row ?? EMPTY;
}

/** A text as it is stored: spaces and line breaks run together, trimmed; nothing left is no value. */
const clean = (s: string | null) => {
  const v = (s ?? '').replace(/\s+/g, ' ').trim();
  return v === '' ? null : v;
};

/** The agency's details the public pages show (not the enquiries' source). */
export async function getSiteContact(db: Db): Promise<TSiteContact> {
  const { version: _v, enquirySourceId: _s, ...contact } = await getSiteSettings(db);
  return contact;
}

/**
 * POST /api/SiteSettings: the four details and the enquiries' source at once, based on `version` (a stale one is a 409 with
 * the current settings and changes nothing). A change is one action-log row with what changed;
 * saving the same details again changes nothing and logs nothing.
 */
export async function updateSiteSettings(db: Db, body: TSiteSettingsUpdate, user: { id: number; actor: Actor }): Promise<TSiteSettings> {
  return db.transaction(async (tx) => {
    await tx.insert(siteSettings).values({ id: 1 }).onConflictDoNothing();
    const [current] = await tx.select().from(siteSettings).where(eq(siteSettings.id, 1)).for('update');
    const cur = current!;
    if (cur.version !== body.version) {
      throw conflict({ name: cur.name, phone: cur.phone, email: cur.email, address: cur.address, enquirySourceId: cur.enquirySourceId, version: cur.version } satisfies TSiteSettings);
    }
    const source = body.enquirySourceId ?? null;
    if (source !== null && source !== cur.enquirySourceId) {
      const [found] = await tx.select({ id: accounts.id }).from(accounts).where(and(eq(accounts.id, source), eq(accounts.isSource, true)));
      if (!found) throw fieldError('enquirySourceId', 'validation.choice');
    }
    const next = { ...(Object.fromEntries(FIELDS.map((f) => [f, clean(body[f])])) as TSiteContact), enquirySourceId: source };
    const changes: Record<string, { from: string | number | null; to: string | number | null }> = {};
    for (const f of [...FIELDS, 'enquirySourceId'] as const) if ((cur[f] ?? null) !== next[f]) changes[f] = { from: cur[f] ?? null, to: next[f] };
    if (!Object.keys(changes).length) return { ...next, version: cur.version };
    const version = cur.version + 1;
    await tx.update(siteSettings).set({ ...next, version, modifiedOn: new Date(), modifiedBy: user.id }).where(eq(siteSettings.id, 1));
    await logAction(tx, user.actor, { action: 'Update', entity: 'SiteSettings', entityId: 1, data: changes });
    return { ...next, version };
  });
}
