import { paymentsUrlOf } from '../../config.ts';
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { and, eq, sql } from 'drizzle-orm';
import { isLocalAddress, LOGO_MAX_BYTES, type TCulture, type TSiteSettings, type TSiteSettingsUpdate } from '@crm/contract';
import type { Db } from '../../db/client.ts';
import { accounts, siteSettings } from '../../db/schema/index.ts';
import { logAction, type Actor } from '../../lib/audit.ts';
import { AppError, conflict, fieldError, notFound, requireVersion } from '../../lib/errors.ts';
import { dropScratch, readUploadForm } from '../../lib/upload-form.ts';
import { getFileStorage, getIncomingDir } from '../../storage/file-storage.ts';
import { noteFilesToRemove, removeNotedFiles, writeStoredFiles } from '../../storage/pending-files.ts';
import { detectFileType } from '../files/file-types.ts';
import { loadSharp } from '../files/pictures.ts';

/** The agency's details on its public site; each null when not set. */
export type TSiteContact = Pick<TSiteSettings, 'name' | 'phone' | 'email' | 'address'>;

/** The texts kept as written (spaces run together); the ΑΦΜ is kept as its 9 digits. */
const FIELDS = ['name', 'phone', 'email', 'address', 'licence', 'taxNumber'] as const;
/** The texts added later (issue 45): left out of an update, each keeps what it is. */
const LATER = ['nameEl', 'website', 'taxOffice', 'publicUrl'] as const;
const NUMBERS = ['saleFeePercent', 'rentFeeMonths'] as const;
type Row = typeof siteSettings.$inferSelect;
const EMPTY: Row = {
  id: 1, name: null, phone: null, email: null, address: null, enquirySourceId: null, licence: null, taxNumber: null, saleFeePercent: null, rentFeeMonths: null,
  nameEl: null, logoName: null, website: null, taxOffice: null, publicUrl: null, setupDoneOn: null, mandateRequiredToPublish: false, modifiedOn: new Date(0), modifiedBy: null, version: 1,
};

/** The settings as the API answers them. */
function pickSettings(r: Row): TSiteSettings {
  return {
    name: r.name, phone: r.phone, email: r.email, address: r.address, enquirySourceId: r.enquirySourceId, licence: r.licence, taxNumber: r.taxNumber,
    saleFeePercent: r.saleFeePercent == null ? null : Number(r.saleFeePercent), rentFeeMonths: r.rentFeeMonths == null ? null : Number(r.rentFeeMonths),
    nameEl: r.nameEl, website: r.website, taxOffice: r.taxOffice, publicUrl: r.publicUrl, hasLogo: r.logoName != null, setupDone: r.setupDoneOn != null,
    mandateRequiredToPublish: r.mandateRequiredToPublish, version: r.version,
  };
}

async function settingsRow(db: Db): Promise<Row> {
  const [row] = await db.select().from(siteSettings).where(eq(siteSettings.id, 1));
  return row ?? EMPTY;
}

const pickFees = (s: TSiteSettings) => ({ saleFeePercent: s.saleFeePercent, rentFeeMonths: s.rentFeeMonths });

/** The one row of site settings (made by migration 0035; the empty settings if it was ever lost). */
export async function getSiteSettings(db: Db): Promise<TSiteSettings> {
  return pickSettings(await settingsRow(db));
}

/** A text as it is stored: spaces and line breaks run together, trimmed; nothing left is no value. */
const clean = (s: string | null | undefined) => {
  const v = (s ?? '').replace(/\s+/g, ' ').trim();
  return v === '' ? null : v;
};

/** The agency's details the public pages show (not the enquiries' source nor the viewing sheet's). */
export async function getSiteContact(db: Db): Promise<TSiteContact> {
  const s = await getSiteSettings(db);
  return { name: s.name, phone: s.phone, email: s.email, address: s.address };
}

/** What reading the identity needs: the database and the configuration. */
export type AppLike = { db: Db; config: FastifyInstance['config'] };

/** The agency's identity, as everything a client or partner sees carries it (issue 45). */
export type TAgencyIdentity = {
  /** The name in Latin letters (English and Russian) and in Greek; null when not set. */
  nameLatin: string | null;
  nameEl: string | null;
  phone: string | null;
  email: string | null;
  address: string | null;
  website: string | null;
  /** The registry number (ΓΕΜΗ / Αρ. Μητρώου), the ΑΦΜ and the tax office (ΔΟΥ); null: left out, never a blank line. */
  licence: string | null;
  taxNumber: string | null;
  taxOffice: string | null;
  /** The address links are built on: the setting, else PUBLIC_URL, else this machine's. */
  publicUrl: string;
  /** Whether `publicUrl` is this machine's: links will not work elsewhere. */
  linksLocal: boolean;
  /** The logo (PNG) when one was uploaded: its public address and a way to read its bytes. */
  logo: { url: string; contentType: 'image/png'; read: () => Promise<Buffer | undefined> } | null;
  /** The name a reader of `culture` is shown: Greek readers the Greek name, others the Latin one, each else the other, else `fallback`. */
  nameIn: (culture: TCulture, fallback: string) => string;
  /** The logo's path on this server ("/api/public/logo?v=N"), null without one. */
  logoPath: string | null;
  /** The fees on a sale (% of the price) and a letting (months of rent), before VAT; null when not set. */
  saleFeePercent: number | null;
  rentFeeMonths: number | null;
  version: number;
};

/** The address links are built on: the public address in the settings, else PUBLIC_URL (else this machine's). */
export const linkBaseOf = (app: Pick<AppLike, 'config'>, setting: string | null) => (setting ?? app.config.publicUrl).replace(/\/$/, '');

/** GET /api/public/logo's path (the logo served to the public site, the sheets and mail). */
export const LOGO_PATH = '/api/public/logo';

/**
 * The one way other code reads the agency's identity: names, contacts, numbers, tax office, web
 * address, the public address links use, and the logo. One small read of the settings' row.
 */
export async function agencyIdentity(app: AppLike): Promise<TAgencyIdentity> {
  const r = await settingsRow(app.db);
  const publicUrl = linkBaseOf(app, r.publicUrl);
  const logoName = r.logoName;
  return {
    /** The logo's path on this server (for pages served from it). */
    logoPath: logoName ? `${LOGO_PATH}?v=${r.version}` : null,
    nameLatin: r.name, nameEl: r.nameEl, phone: r.phone, email: r.email, address: r.address, website: r.website,
    licence: r.licence, taxNumber: r.taxNumber, taxOffice: r.taxOffice, publicUrl, linksLocal: isLocalAddress(publicUrl),
    logo: logoName ? { url: `${publicUrl}${LOGO_PATH}?v=${r.version}`, contentType: 'image/png', read: () => readStored(app, logoName) } : null,
    nameIn: (culture, fallback) => (culture === 'el' ? (r.nameEl ?? r.name) : (r.name ?? r.nameEl)) ?? fallback,
    ...pickFees(pickSettings(r)),
    version: r.version,
  };
}

/**
 * The payments app's address for links in mail: the public address (the setting, else PUBLIC_URL)
 * on PAYMENTS_HOST, as config.paymentsUrl is made from PUBLIC_URL alone.
 */
export async function paymentsLinkBase(app: AppLike): Promise<string> {
  return paymentsUrlOf(await linkBase(app), app.config.paymentsHost);
}

/** The address links are built on now (one small read): the setting, else PUBLIC_URL. */
export async function linkBase(app: AppLike): Promise<string> {
  const [row] = await app.db.select({ publicUrl: siteSettings.publicUrl }).from(siteSettings).where(eq(siteSettings.id, 1));
  return linkBaseOf(app, row?.publicUrl ?? null);
}

async function readStored(app: AppLike, name: string): Promise<Buffer | undefined> {
  const stream = await getFileStorage(app.config.dataDir).get(name);
  if (!stream) return undefined;
  const chunks: Buffer[] = [];
  for await (const c of stream as Readable) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** The logo's stream for GET /api/public/logo; a 404 when there is none. */
export async function siteLogoStream(app: FastifyInstance): Promise<Readable> {
  const [row] = await app.db.select({ logoName: siteSettings.logoName }).from(siteSettings).where(eq(siteSettings.id, 1));
  const stream = row?.logoName ? await getFileStorage(app.config.dataDir).get(row.logoName) : undefined;
  if (!stream) throw notFound('settings.logo.none');
  return stream;
}

/** A web address as stored: with its scheme (https:// when written without one). */
const withScheme = (s: string | null) => (s && !/^https?:\/\//i.test(s) ? `https://${s}` : s);

type ChangeSet = Record<string, { from: string | number | boolean | null; to: string | number | boolean | null }>;

/**
 * POST /api/SiteSettings: the details, the enquiries' source and the viewing sheet's details at once, based on `version` (a stale one is a 409 with
 * the current settings and changes nothing). A change is one action-log row with what changed;
 * saving the same details again changes nothing and logs nothing. The later fields (issue 45) keep
 * their value when left out; `setupDone: true` marks the first set-up done.
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
    const later = Object.fromEntries(LATER.map((f) => [f, body[f] === undefined ? cur[f] : clean(body[f])])) as Pick<TSiteSettings, (typeof LATER)[number]>;
    if (body.website !== undefined) later.website = withScheme(later.website);
    if (body.publicUrl !== undefined && later.publicUrl) later.publicUrl = later.publicUrl.replace(/\/+$/, '');
    const mandateRequiredToPublish = body.mandateRequiredToPublish ?? cur.mandateRequiredToPublish;
    const next = { ...texts, ...later, enquirySourceId: source, saleFeePercent: body.saleFeePercent ?? null, rentFeeMonths: body.rentFeeMonths ?? null, mandateRequiredToPublish };
    const changes: ChangeSet = {};
    for (const f of [...FIELDS, ...LATER, 'enquirySourceId', ...NUMBERS, 'mandateRequiredToPublish'] as const) {
      const was = cur[f] == null ? null : NUMBERS.includes(f as (typeof NUMBERS)[number]) ? Number(cur[f]) : cur[f];
      if (was !== next[f]) changes[f] = { from: was, to: next[f] };
    }
    // Done when the set-up says so, or once a save leaves nothing the set-up asks for (the name, a phone or e-mail, both numbers).
    const complete = !!(next.name || next.nameEl) && !!(next.phone || next.email) && !!next.licence && !!next.taxNumber;
    const setupDoneOn = cur.setupDoneOn ?? (body.setupDone === true || complete ? new Date() : null);
    if (setupDoneOn !== cur.setupDoneOn) changes.setupDone = { from: false, to: true };
    if (!Object.keys(changes).length) return pickSettings(cur);
    const version = cur.version + 1;
    const [saved] = await tx
      .update(siteSettings)
      .set({ ...next, setupDoneOn, version, modifiedOn: new Date(), modifiedBy: user.id })
      .where(eq(siteSettings.id, 1))
      .returning();
    await logAction(tx, user.actor, { action: 'Update', entity: 'SiteSettings', entityId: 1, data: changes });
    return pickSettings(saved!);
  });
}

/** Pictures a logo may be uploaded as (by content). */
const LOGO_TYPES = new Set(['image/png', 'image/jpeg', 'image/webp', 'image/gif']);
/** The logo as kept: a PNG at most this wide and high (never enlarged), upright, without metadata. */
const LOGO_BOX = { width: 800, height: 400 };

/**
 * POST /api/SiteSettings/logo (a form: `file` and `version`): the picture, checked by its content
 * (PNG, JPEG, WebP or GIF; anything else a 415 and nothing changed), kept as a PNG through the
 * file store; the one it replaces is removed. Version guard and action log as the details'.
 */
export async function uploadSiteLogo(app: FastifyInstance, req: FastifyRequest, user: { id: number; actor: Actor }): Promise<TSiteSettings> {
  const { fields, files } = await readUploadForm(app, req, {
    fileMax: LOGO_MAX_BYTES,
    requestMax: LOGO_MAX_BYTES,
    maxFiles: 1,
    keepField: (n) => n === 'version',
    tooLarge: () => new AppError(413, 'settings.logo.tooLarge', { max: Math.round(LOGO_MAX_BYTES / (1024 * 1024)) }),
  });
  const scratch: string[] = [];
  try {
    const file = files[0];
    if (!file) throw fieldError('file', 'settings.logo.noFile');
    const version = Number(fields.version);
    if (!Number.isInteger(version) || version < 1) throw new AppError(428, 'errors.versionRequired');
    const type = await detectFileType(file.tmp, file.userName);
    if (!type || !LOGO_TYPES.has(type.mime)) throw new AppError(415, 'settings.logo.notImage', { name: file.userName });
    const sharp = await loadSharp();
    const out = path.join(getIncomingDir(app.config.dataDir), `${randomBytes(12).toString('hex')}.png`);
    scratch.push(out);
    try {
      await sharp(file.tmp, { limitInputPixels: 50_000_000, animated: false }).rotate().resize({ ...LOGO_BOX, fit: 'inside', withoutEnlargement: true }).png().toFile(out);
    } catch {
      throw new AppError(415, 'settings.logo.notImage', { name: file.userName });
    }
    const name = `logo-${randomBytes(16).toString('hex')}.png`;
    let replaced: string | null = null;
    // Named pending before it is written, claimed by the settings' commit (decisions 104, 109).
    const saved = await writeStoredFiles(app, async (stored) => {
      await stored.put(name, { path: out });
      return stored.transaction(async (tx) => {
        await tx.insert(siteSettings).values({ id: 1 }).onConflictDoNothing();
        const [cur] = await tx.select().from(siteSettings).where(eq(siteSettings.id, 1)).for('update');
        if (cur!.version !== version) throw conflict(pickSettings(cur!));
        replaced = cur!.logoName;
        const [row] = await tx.update(siteSettings).set({ logoName: name, version: cur!.version + 1, modifiedOn: new Date(), modifiedBy: user.id }).where(eq(siteSettings.id, 1)).returning();
        await stored.claim(tx);
        // The old logo goes after the commit; named to remove with it, so a crash cannot orphan it (decision 115).
        if (replaced) await noteFilesToRemove(tx, [replaced]);
        await logAction(tx, user.actor, { action: 'Update', entity: 'SiteSettings', entityId: 1, data: { logo: { from: replaced ? 'logo' : null, to: file.userName } } });
        return pickSettings(row!);
      });
    });
    if (replaced) await removeNotedFiles(app, [replaced]);
    return saved;
  } finally {
    await dropScratch(files);
    for (const f of scratch) await fs.promises.rm(f, { force: true });
  }
}

/** DELETE /api/SiteSettings/logo?version=N: the logo removed (version guard, action log). */
export async function deleteSiteLogo(app: FastifyInstance, version: number, user: { id: number; actor: Actor }): Promise<TSiteSettings> {
  let removed: string | null = null;
  const saved = await app.db.transaction(async (tx) => {
    const [cur] = await tx.select().from(siteSettings).where(eq(siteSettings.id, 1)).for('update');
    if (!cur) throw notFound('settings.logo.none');
    if (cur.version !== version) throw conflict(pickSettings(cur));
    if (!cur.logoName) return pickSettings(cur);
    removed = cur.logoName;
    await noteFilesToRemove(tx, [cur.logoName]);
    const [row] = await tx.update(siteSettings).set({ logoName: null, version: cur.version + 1, modifiedOn: new Date(), modifiedBy: user.id }).where(eq(siteSettings.id, 1)).returning();
    await logAction(tx, user.actor, { action: 'Update', entity: 'SiteSettings', entityId: 1, data: { logo: { from: 'logo', to: null } } });
    return pickSettings(row!);
  });
  if (removed) await removeNotedFiles(app, [removed]);
  return saved;
}

/**
 * The name a client is shown for a member of staff: the full name (first name first) of the
 * person's account, never the sign-in name nor the e-mail ("admin" is nobody's name); null when the
 * sign-in has no account with a name (the first administrator before they fill theirs in).
 */
export async function staffFullName(db: Db, userId: number | null): Promise<string | null> {
  if (userId == null) return null;
  const rows = await db.execute(sql`
    select a.first_name, a.last_name, a.display_name, a.name, a.is_company from users u join accounts a on a.id = u.account_id and a.erased_on is null
    where u.id = ${userId}`);
  const a = rows.rows[0] as { first_name: string | null; last_name: string | null; display_name: string | null; name: string | null; is_company: boolean | null } | undefined;
  if (!a) return null;
  const full = [a.first_name, a.last_name].map((x) => x?.trim()).filter(Boolean).join(' ');
  return full || a.display_name?.trim() || null;
}
