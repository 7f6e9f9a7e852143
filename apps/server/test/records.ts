import { Readable } from 'node:stream';
import { expect } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { LinkKind } from '@crm/contract';
import { accounts, files, leads, objects } from '../src/db/schema/index.ts';
import { getFileStorage } from '../src/storage/file-storage.ts';
import type { TestApp } from './harness.ts';

type AccountValues = Partial<typeof accounts.$inferInsert>;

/**
 * A test file's maker of accounts, numbered so each is another person (`Maria1 Papadopoulou1`,
 * `Maria2 Papadopoulou2`, …), with the file's own defaults; what a test passes overrides both.
 */
export function accountMaker(db: TestApp['db'], firstName: string, lastName: string, defaults: AccountValues = {}) {
  let n = 0;
  return async (values: AccountValues = {}) => {
    n++;
    const [a] = await db
      .insert(accounts)
      .values({ firstName: `${firstName}${n}`, lastName: `${lastName}${n}`, ...defaults, ...values })
      .returning({ id: accounts.id, displayName: accounts.displayName, version: accounts.version });
    return a!;
  };
}

/**
 * A property as a test needs it: its reference number from the sequence, of the first type (a flat),
 * with the file's values (title, prices, place, …) on top. Answers its id and reference number.
 */
export async function insertObject(db: TestApp['db'], values: Record<string, unknown>) {
  const [o] = await db
    .insert(objects)
    .values({ referenceNumber: sql`nextval('objects_reference_number_seq')`, subTypeObjectTypeId: 1, objectSubTypeId: 1, ...values } as never)
    .returning({ id: objects.id, ref: objects.referenceNumber });
  return o!;
}

/**
 * A property complete enough to be published (decision 022): for sale, described, sized, active and
 * on the map, with the file's values (title, place, …) on top. Answers its id, its reference number
 * and that number as shown (`0042`).
 */
export async function publishableObject(db: TestApp['db'], values: Record<string, unknown>) {
  const o = await insertObject(db, {
    description: 'Two bedrooms, renovated.',
    forSale: true,
    salePrice: 185000,
    area: 80,
    bedrooms: 2,
    active: true,
    latitude: 40.5812,
    longitude: 22.9501,
    displayCoordinates: true,
    mapZoom: 16,
    ...values,
  });
  return { id: o.id, n: o.ref, ref: String(o.ref).padStart(4, '0') };
}

/**
 * The public site's contact form about a property (its reference as shown), posted as a visitor's
 * browser posts it: from `address` (each visitor has their own; the form counts tries by it), in `lang`.
 */
export const sendEnquiry = (app: TestApp['app'], ref: string, form: Record<string, string>, opts: { address?: string; lang?: string } = {}) =>
  app.inject({
    method: 'POST',
    url: `/listings/${ref}/contact?lang=${opts.lang ?? 'en'}`,
    ...(opts.address ? { remoteAddress: opts.address } : {}),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(form).toString(),
  });

/** The leads of the account that has this e-mail (none without such an account). */
export async function leadsOfEmail(db: TestApp['db'], email: string) {
  const [acc] = await db.select().from(accounts).where(sql`${email} = any(${accounts.emails})`);
  return acc ? db.select().from(leads).where(eq(leads.accountId, acc.id)) : [];
}

/**
 * The staff the accounts' access tests act as: an office admin, an employee, a branch's employee
 * and a branch's admin; `addAccount` adds an account as the office admin does (numbered names,
 * `fields` on top) and answers its id, `stored` reads one as the database holds it.
 */
export async function accountStaff(t: TestApp) {
  const admin = await t.user({ roles: ['admin'] });
  const emp = await t.user({ roles: ['employee'] });
  const branchUser = await t.user({ roles: ['employee'], branchId: 1 });
  const branchAdmin = await t.user({ roles: ['admin'], branchId: 1 });
  let n = 0;
  const addAccount = async (fields: Record<string, unknown> = {}): Promise<number> => {
    n++;
    const res = await admin.post('/api/account/add', { firstName: `First${n}`, lastName: `Last${n}`, ...fields });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().id as number;
  };
  const stored = async (id: number) => (await t.db.select().from(accounts).where(eq(accounts.id, id)))[0]!;
  return { admin, emp, branchUser, branchAdmin, addAccount, stored };
}

/**
 * A test file's maker of pictures as an upload leaves them, numbered (`<prefix>1.jpg`, …): the web
 * copy in the file storage (its text `web copy <n>`), with `original` the camera original too
 * (`camera original <n>`), with `stamp` the stored name made unique by the time as the upload makes
 * it, and the files row; given a property, the picture is its n-th photo. `values` go on top.
 */
export function photoMaker(t: Pick<TestApp, 'db' | 'dataDir'>, prefix: string, opts: { original?: boolean; stamp?: boolean } = {}) {
  const storage = getFileStorage(t.dataDir);
  let n = 0;
  return async (objectId?: number | null, values: Partial<typeof files.$inferInsert> = {}) => {
    n++;
    const systemName = opts.stamp ? `${prefix}${n}-${Date.now()}.jpg` : `${prefix}${n}.jpg`;
    const webName = `${prefix}${n}-web.webp`;
    await storage.put(webName, Readable.from(Buffer.from(`web copy ${n}`)));
    if (opts.original) await storage.put(systemName, Readable.from(Buffer.from(`camera original ${n}`)));
    const parent = objectId ? { parentType: LinkKind.Object, parentId: objectId, type: 'image', sortOrder: n } : {};
    const [f] = await t.db
      .insert(files)
      .values({ systemName, userName: `IMG_${n}.jpg`, mime: 'image/jpeg', size: 100, webName, thumbName: webName, ...parent, ...values })
      .returning({ id: files.id });
    return { id: f!.id, n, systemName, webName };
  };
}
