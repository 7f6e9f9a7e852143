import { and, eq } from 'drizzle-orm';
import type { TSiteSettings, TSiteSettingsUpdate } from '@crm/contract';
import type { Db } from '../../db/client.ts';
import { accounts, siteSettings } from '../../db/schema/index.ts';
import { logAction, type Actor } from '../../lib/audit.ts';
import { conflict, fieldError, requireVersion } from '../../lib/errors.ts';

/** The agency's details on its public site; each null when not set. */
export type TSiteContact = Pick<TSiteSettings, 'name' | 'phone' | 'email' | 'address'>;

const CONTACT = ['name', 'phone', 'email', 'address'] as const;
/** The texts kept as written (spaces run together); the ΑΦΜ is kept as its 9 digits. */
const FIELDS = [...CONTACT, 'licence', 'taxNumber'] as const;
const NUMBERS = ['saleFeePercent', 'rentFeeMonths'] as const;
const EMPTY: TSiteSettings = { name: null, phone: null, email: null, address: null, enquirySourceId: null, licence: null, taxNumber: null, saleFeePercent: null, rentFeeMonths: null, version: 1 };
const COLUMNS = {
  name: siteSettings.name,
  phone: siteSettings.phone,
  email: siteSettings.email,
  address: siteSettings.address,
  enquirySourceId: siteSettings.enquirySourceId,
  licence: siteSettings.licence,
  taxNumber: siteSettings.taxNumber,
  saleFeePercent: siteSettings.saleFeePercent,
  rentFeeMonths: siteSettings.rentFeeMonths,
  version: siteSettings.version,
};
const pickSettings = (row: typeof siteSettings.$inferSelect): TSiteSettings => Object.fromEntries(Object.keys(COLUMNS).map((k) => [k, row[k as keyof TSiteSettings] ?? null])) as TSiteSettings;

/** The one row of site settings (made by migration 0035; the empty settings if it was ever lost). */
export async function getSiteSettings(db: Db): Promise<TSiteSettings> {
  const [row] = await db.select(COLUMNS).from(siteSettings).where(eq(siteSettings.id, 1));
  return row ?? EMPTY;
}

/** A text as it is stored: spaces and line breaks run together, trimmed; nothing left is no value. */
const clean = (s: string | null) => {
  const v = (s ?? '').replace(/\s+/g, ' ').trim();
  return v === '' ? null : v;
};

/** The agency's details the public pages show (not the enquiries' source nor the viewing sheet's). */
export async function getSiteContact(db: Db): Promise<TSiteContact> {
  const s = await getSiteSettings(db);
  return { name: s.name, phone: s.phone, email: s.email, address: s.address };
}

/**
 * POST /api/SiteSettings: the details, the enquiries' source and the viewing sheet's details at once, based on `version` (a stale one is a 409 with
 * the current settings and changes nothing). A change is one action-log row with what changed;
 * saving the same details again changes nothing and logs nothing.
 */
export async function updateSiteSettings(db: Db, body: TSiteSettingsUpdate, user: { id: number; actor: Actor }): Promise<TSiteSettings> {
  return db.transaction(async (tx) => {
    await tx.insert(siteSettings).values({ id: 1 }).onConflictDoNothing();
    const [current] = await tx.select().from(siteSettings).where(eq(siteSettings.id, 1)).for('update');
    const cur = current!;
    if (cur.version !== requireVersion(body.version)) {
      throw conflict(pickSettings(cur));
    }
    const source = body.enquirySourceId ?? null;
    if (source !== null && source !== cur.enquirySourceId) {
      const [found] = await tx.select({ id: accounts.id }).from(accounts).where(and(eq(accounts.id, source), eq(accounts.isSource, true)));
      if (!found) throw fieldError('enquirySourceId', 'validation.choice');
    }
    const texts = Object.fromEntries(FIELDS.map((f) => [f, clean(body[f])])) as Pick<TSiteSettings, (typeof FIELDS)[number]>;
    if (texts.taxNumber) texts.taxNumber = texts.taxNumber.replace(/[\s.]/g, '').replace(/^EL/i, '');
    const next: Omit<TSiteSettings, 'version'> = { ...texts, enquirySourceId: source, saleFeePercent: body.saleFeePercent ?? null, rentFeeMonths: body.rentFeeMonths ?? null };
    const changes: Record<string, { from: string | number | null; to: string | number | null }> = {};
    for (const f of [...FIELDS, 'enquirySourceId', ...NUMBERS] as const) {
      const was = cur[f] == null ? null : NUMBERS.includes(f as (typeof NUMBERS)[number]) ? Number(cur[f]) : cur[f];
      if (was !== next[f]) changes[f] = { from: was, to: next[f] };
    }
    if (!Object.keys(changes).length) return { ...next, version: cur.version };
    const version = cur.version + 1;
    await tx.update(siteSettings).set({ ...next, version, modifiedOn: new Date(), modifiedBy: user.id }).where(eq(siteSettings.id, 1));
    await logAction(tx, user.actor, { action: 'Update', entity: 'SiteSettings', entityId: 1, data: changes });
    return { ...next, version };
  });
}
