import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { and, desc, eq, sql } from 'drizzle-orm';
import { LinkKind } from '@crm/contract';
import { accounts, users, actionLog, alerts, files, leadObjects, leads, locations, objectAccounts, objectKeys, shortlistObjects, shortlists } from '../../db/schema/index.ts';
import { getFileStorage } from '../../storage/file-storage.ts';
import { createTestApp, type Client } from '../../../test/harness.ts';
import { insertObject } from '../../../test/records.ts';

/** Shortlists: an agent sends a lead's client some offered properties; the client answers through the link. */
const t = await createTestApp({ PUBLIC_URL: 'https://crm.agency.test' });
const { app, db } = t;
const agent = await t.user({ roles: ['employee'] });
const payer = await t.user({ roles: ['clientPayments'] });

const [place] = await db.insert(locations).values({ level: 2, nameEn: 'Kalamaria', nameEl: 'Καλαμαριά', nameRu: 'Каламария', textEn: 'Kalamaria', textEl: 'Καλαμαριά', textRu: 'Каламария' }).returning();
let seq = 0;
async function newObject(values: Record<string, unknown> = {}) {
  seq++;
  const o = await insertObject(db, {
    title: `Flat ${seq} near the sea`,
    description: 'Bright flat, two bedrooms, renovated kitchen.',
    forSale: true,
    salePrice: 185000,
    forRent: true,
    rentPrice: 700,
    area: 82,
    bedrooms: 2,
    locationId: place!.id,
    active: true,
    address: 'Odos Leakou 713',
    displayAddress: false,
    internalNotes: 'LEAK-NOTE owner accepts less',
    ...values,
  });
  return o!;
}
async function newLead(account: Partial<typeof accounts.$inferInsert> | null, objectIds: number[], lead: Record<string, unknown> = { forRent: true }) {
  seq++;
  const [a] = account ? await db.insert(accounts).values({ firstName: `Νίκος${seq}`, lastName: `Πελάτης${seq}`, ...account }).returning() : [null];
  const [l] = await db.insert(leads).values({ accountId: a?.id ?? null, ...lead } as never).returning({ id: leads.id });
  if (objectIds.length) await db.insert(leadObjects).values(objectIds.map((objectId, position) => ({ leadId: l!.id, objectId, position })));
  return { id: l!.id, account: a };
}
const send = (leadId: number, objectIds: number[], channel: 'email' | 'link', as: Client = agent, lang = 'en') =>
  as.post(`/api/lead/${leadId}/shortlist`, { objectIds, channel }, { lang });
const tokenOf = (url: string) => /\/Shortlist\/([A-Za-z0-9_-]{43})$/.exec(url)![1]!;
const view = (token: string, lang = 'en') => app.inject({ url: `/api/shortlist/${token}`, headers: { 'accept-language': lang } });
const answer = (token: string, objectId: number, a: 'interested' | 'notForMe' | null) =>
  app.inject({ method: 'POST', url: `/api/shortlist/${token}/answer`, payload: { objectId, answer: a } });

describe('shortlists', () => {
  it('mails the chosen properties in the client\'s language, logs the sending, and the link opens them', async () => {
    const a = await newObject();
    const b = await newObject({ forRent: false, rentPrice: null });
    const c = await newObject();
    // The agent who sends it signs with the full name and phone of the sign-in's account.
    const signer = await t.user({ roles: ['employee'] });
    const [person] = await db.insert(accounts).values({ firstName: 'Ελένη', lastName: 'Αγαπίου', isEmploye: true, phones: ['+30 697 000 1111'], emails: [signer.email] }).returning();
    await db.update(users).set({ accountId: person!.id }).where(eq(users.id, signer.id));
    const lead = await newLead({ emails: [' maria@example.gr'], language: 'el', firstName: 'Νίκος' }, [a.id, b.id, c.id]);
    const res = await send(lead.id, [a.id, b.id], 'email', signer);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ email: 'maria@example.gr', message: 'Sent to maria@example.gr.' });
    const url = res.json().url as string;
    expect(url).toMatch(/^https:\/\/crm\.agency\.test\/Shortlist\/[A-Za-z0-9_-]{43}$/);
    const mail = await t.lastMailTo('maria@example.gr');
    expect(mail).toContain('Αγαπητέ Νίκο,');
    expect(mail).not.toContain('Αγαπητέ/ή');
    expect(mail).toContain(url);
    expect(mail).toContain('Flat');
    expect(mail).toMatch(/700\s€ τον μήνα/);
    expect(mail).toMatch(/185\s000\s€/);
    expect(mail).toContain(`Με εκτίμηση,\nΕλένη Αγαπίου\nΤηλ. +30 697 000 1111\n${signer.email}\n\n--\nΜεσιτικό Γραφείο`);
    // Only its hash is kept.
    const [row] = await db.select().from(shortlists).where(eq(shortlists.leadId, lead.id));
    expect(row!.tokenHash).not.toContain(tokenOf(url));
    expect(row!.language).toBe('el');
    expect(row!.expiresOn.getTime() - row!.sentOn.getTime()).toBe(30 * 24 * 3600 * 1000);
    const [log] = await db.select().from(actionLog).where(and(eq(actionLog.entity, 'Lead'), eq(actionLog.entityId, lead.id), eq(actionLog.action, 'SendShortlist')));
    expect(log!.data).toMatchObject({ channel: 'email', objects: 2, email: 'maria@example.gr' });
    expect(log!.actionBy).toBe(signer.id);

    await db.execute(sql`update site_settings set name = 'Ακίνητα Θερμαϊκός', phone = '+30 2310 123456', email = 'info@thermaikos.gr', address = null where id = 1`);
    const page = await view(tokenOf(url), 'el');
    expect(page.statusCode, page.body).toBe(200);
    const body = page.json();
    expect(body.language).toBe('el');
    // The agency's name and contact, from the site's settings.
    expect(body.agency).toEqual({ name: 'Ακίνητα Θερμαϊκός', logo: null, phone: '+30 2310 123456', email: 'info@thermaikos.gr', address: null });
    expect(body.items.map((i: { objectId: number }) => i.objectId)).toEqual([a.id, b.id]);
    // The rent the lead asks for, where the property has one; else its sale price.
    expect(body.items[0]).toMatchObject({ place: 'Καλαμαριά', price: { service: 'rent', price: 700 }, bedrooms: 2, area: 82, publicUrl: null, answer: null });
    expect(body.items[1].price).toMatchObject({ service: 'sale', price: 185000 });
    // A reader who chose another language reads the properties in it; the page still names the shortlist's.
    const english = (await view(tokenOf(url), 'en')).json();
    expect(english).toMatchObject({ language: 'el', items: [{ place: 'Kalamaria' }, { place: 'Kalamaria' }] });
    // The first opening is noted for the lead's page.
    const list = await agent.get(`/api/lead/${lead.id}/shortlists`);
    expect(list.json().items[0]).toMatchObject({ channel: 'email', email: 'maria@example.gr', expired: false });
    expect(list.json().items[0].openedOn).not.toBeNull();
  });

  it('shows no internal data of the properties, published or not', async () => {
    const o = await newObject();
    const [owner] = await db.insert(accounts).values({ firstName: 'Zbigniew', lastName: 'Leakowski', emails: ['owner.leak@example.test'] }).returning();
    await db.insert(objectAccounts).values({ objectId: o.id, accountId: owner!.id, relation: 1, price: 123457 });
    await db.insert(objectKeys).values({ objectId: o.id, accountId: owner!.id, received: '2020-02-02', description: 'KEY-LEAK under the mat' });
    await getFileStorage(t.dataDir).put('sl-photo-web.webp', Readable.from(Buffer.from('web copy')));
    await db.insert(files).values({ systemName: 'SL-SYS-LEAK.jpg', userName: 'IMG_LEAK_ORIGINAL.jpg', mime: 'image/jpeg', size: 1, parentType: LinkKind.Object, parentId: o.id, type: 'image', webName: 'sl-photo-web.webp' });
    const lead = await newLead({ language: 'en' }, [o.id]);
    const res = await send(lead.id, [o.id], 'link');
    expect(res.statusCode, res.body).toBe(200);
    const token = tokenOf(res.json().url);
    const page = await view(token);
    expect(page.statusCode).toBe(200);
    // The street ("Leakou 713") is looked for by its name: its number alone also turns up by chance in
    // the random e-mail of a test's user ("user1-f6f713@…").
    for (const marker of ['LEAK-NOTE', 'Leakou', 'Leakowski', 'owner.leak', '123457', 'KEY-LEAK', 'IMG_LEAK', 'SL-SYS-LEAK']) expect(page.body).not.toContain(marker);
    const item = page.json().items[0];
    expect(item.photo).toBe(`/api/shortlist/${token}/photo/${o.id}`);
    const photo = await app.inject({ url: item.photo });
    expect(photo.statusCode).toBe(200);
    expect(photo.headers['content-type']).toBe('image/webp');
    expect(photo.body).toBe('web copy');
    // Named after the property, not the file as the office stores it.
    expect(photo.headers['content-disposition']).toBe(`inline; filename="photo-${o.id}.webp"`);
  });

  it('a token opens its own shortlist only: unknown 404, expired 410, another lead\'s object refused', async () => {
    const a = await newObject();
    const b = await newObject();
    const one = await newLead({}, [a.id]);
    const two = await newLead({}, [b.id]);
    const t1 = tokenOf((await send(one.id, [a.id], 'link')).json().url);
    const t2 = tokenOf((await send(two.id, [b.id], 'link')).json().url);
    expect(t1).not.toBe(t2);
    // Lead one's token answers nothing about lead two's property, nor shows its photo.
    expect((await answer(t1, b.id, 'interested')).statusCode).toBe(404);
    expect((await app.inject({ url: `/api/shortlist/${t1}/photo/${b.id}` })).statusCode).toBe(404);
    const [bRow] = await db.select().from(shortlists).where(eq(shortlists.leadId, two.id));
    expect((await view(t2)).json().items[0].answer).toBeNull();
    expect(bRow!.openedOn).toBeNull();
    // A token of the right shape that was never made.
    const unknown = await view('A'.repeat(43));
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().title).toBe('This link is not valid. Please ask your agent for a new one.');
    expect((await view('short')).statusCode).toBe(400);
    await db.update(shortlists).set({ expiresOn: new Date(Date.now() - 1000) }).where(eq(shortlists.leadId, one.id));
    const expired = await view(t1);
    expect(expired.statusCode).toBe(410);
    expect(expired.body).not.toContain('Flat');
    expect((await answer(t1, a.id, 'interested')).statusCode).toBe(410);
  });

  it('stores the client\'s answers (changeable), logs them, and alerts the office once per answer', async () => {
    const a = await newObject();
    const lead = await newLead({ firstName: 'Maria', lastName: 'Papadopoulou' }, [a.id]);
    const token = tokenOf((await send(lead.id, [a.id], 'link')).json().url);
    const r1 = await answer(token, a.id, 'interested');
    expect(r1.statusCode, r1.body).toBe(200);
    expect(r1.json().items[0].answer).toBe('interested');
    await answer(token, a.id, 'interested');
    expect((await answer(token, a.id, 'notForMe')).json().items[0].answer).toBe('notForMe');
    await answer(token, a.id, 'interested');
    const list = (await agent.get(`/api/lead/${lead.id}/shortlists`)).json();
    expect(list.items[0].items[0]).toMatchObject({ objectId: a.id, answer: 'interested' });
    const mine = await db.select().from(alerts).where(and(eq(alerts.entity, 'Lead'), eq(alerts.entityId, lead.id))).orderBy(alerts.id);
    expect(mine.map((x) => x.kind)).toEqual(['shortlist', 'shortlist']);
    expect(mine[0]!.content).toContain('Papadopoulou Maria is interested in property #');
    const logs = await db.select().from(actionLog).where(and(eq(actionLog.entityId, lead.id), eq(actionLog.action, 'ShortlistAnswer'))).orderBy(desc(actionLog.id));
    // interested, notForMe, interested: the repeated tap changed nothing and logged nothing.
    expect(logs).toHaveLength(3);
    expect(logs[0]!.actionByName).toBe('Papadopoulou Maria');
  });

  it('a double tap stores one answer, logs once and alerts once', async () => {
    const a = await newObject();
    const lead = await newLead({ firstName: 'Kostas', lastName: 'Double' }, [a.id]);
    const token = tokenOf((await send(lead.id, [a.id], 'link')).json().url);
    const taps = await Promise.all([answer(token, a.id, 'interested'), answer(token, a.id, 'interested'), answer(token, a.id, 'interested')]);
    expect(taps.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(taps.map((r) => r.json().items[0].answer)).toEqual(['interested', 'interested', 'interested']);
    expect(await db.select().from(actionLog).where(and(eq(actionLog.entityId, lead.id), eq(actionLog.action, 'ShortlistAnswer')))).toHaveLength(1);
    expect(await db.select().from(alerts).where(and(eq(alerts.entity, 'Lead'), eq(alerts.entityId, lead.id)))).toHaveLength(1);
  });

  it('builds the link from the configured address, never from the request\'s host', async () => {
    const a = await newObject();
    const lead = await newLead({ emails: ['host@example.gr'] }, [a.id]);
    const spoofed = { headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example', 'x-forwarded-proto': 'http' } };
    const res = await agent.post(`/api/lead/${lead.id}/shortlist`, { objectIds: [a.id], channel: 'email' }, spoofed);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().url).toMatch(/^https:\/\/crm\.agency\.test\/Shortlist\//);
    const mail = await t.lastMailTo('host@example.gr');
    expect(mail).toContain(res.json().url);
    expect(mail).not.toContain('evil.example');
  });

  it('a withdrawn link stops working at once: the page says so (410), answers and photos are refused, the log records it', async () => {
    const a = await newObject();
    await getFileStorage(t.dataDir).put('wd-photo-web.webp', Readable.from(Buffer.from('web copy')));
    await db.insert(files).values({ systemName: 'wd.jpg', userName: 'wd.jpg', mime: 'image/jpeg', size: 1, parentType: LinkKind.Object, parentId: a.id, type: 'image', webName: 'wd-photo-web.webp' });
    const lead = await newLead({ firstName: 'Eleni', lastName: 'Georgiou' }, [a.id]);
    const other = await newLead({}, [a.id]);
    const token = tokenOf((await send(lead.id, [a.id], 'link')).json().url);
    const otherToken = tokenOf((await send(other.id, [a.id], 'link')).json().url);
    expect((await answer(token, a.id, 'interested')).statusCode).toBe(200);
    const [row] = await db.select().from(shortlists).where(eq(shortlists.leadId, lead.id));
    const [otherRow] = await db.select().from(shortlists).where(eq(shortlists.leadId, other.id));
    const withdraw = (leadId: number, id: number, as: Client = agent, lang = 'en') => as.post(`/api/lead/${leadId}/shortlist/${id}/withdraw`, undefined, { lang });

    // Refused: another lead's shortlist through this lead, an unknown one, a payments client, anonymous.
    const wrongLead = await withdraw(lead.id, otherRow!.id, agent, 'el');
    expect(wrongLead.statusCode).toBe(404);
    expect(wrongLead.json().title).toBe('Ο σύνδεσμος δεν βρέθηκε σε αυτό το ενδιαφέρον. Μπορεί να έχει διαγραφεί.');
    expect((await withdraw(lead.id, 999999)).statusCode).toBe(404);
    expect((await withdraw(lead.id, row!.id, payer)).statusCode).toBe(403);
    expect((await app.inject({ method: 'POST', url: `/api/lead/${lead.id}/shortlist/${row!.id}/withdraw` })).statusCode).toBe(401);
    expect((await view(token)).statusCode).toBe(200);

    const res = await withdraw(lead.id, row!.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().items[0]).toMatchObject({ id: row!.id, withdrawnBy: agent.email });
    expect(res.json().items[0].withdrawnOn).not.toBeNull();
    // The client's page: withdrawn, in the reader's language, nothing of the properties.
    const page = await view(token, 'el');
    expect(page.statusCode).toBe(410);
    expect(page.json()).toMatchObject({ code: 'shortlist.linkWithdrawn', title: 'Αυτός ο σύνδεσμος έχει ακυρωθεί. Παρακαλούμε επικοινωνήστε με τον σύμβουλό σας.' });
    expect(page.body).not.toContain('Flat');
    const late = await answer(token, a.id, 'notForMe');
    expect(late.statusCode).toBe(410);
    expect((await app.inject({ url: `/api/shortlist/${token}/photo/${a.id}` })).statusCode).toBe(410);
    // The answer given before stays on the lead; the other lead's link still works.
    const [kept] = await db.select({ answer: shortlistObjects.answer }).from(shortlistObjects).where(eq(shortlistObjects.shortlistId, row!.id));
    expect(kept!.answer).toBe('interested');
    expect((await view(otherToken)).statusCode).toBe(200);
    // Withdrawing again changes and logs nothing.
    expect((await withdraw(lead.id, row!.id)).statusCode).toBe(200);
    const logs = await db.select().from(actionLog).where(and(eq(actionLog.entityId, lead.id), eq(actionLog.action, 'WithdrawShortlist')));
    expect(logs).toHaveLength(1);
    expect(logs[0]!).toMatchObject({ entity: 'Lead', actionBy: agent.id, message: 'link' });
    expect(logs[0]!.data).toMatchObject({ shortlistId: row!.id, channel: 'link' });
  });

  it('refuses e-mail without an address, properties not offered, and callers who may not edit leads', async () => {
    const a = await newObject();
    const other = await newObject();
    const lead = await newLead({ emails: [] }, [a.id]);
    const noMail = await send(lead.id, [a.id], 'email', agent, 'el');
    expect(noMail.statusCode).toBe(400);
    expect(noMail.json().title).toBe('Ο πελάτης δεν έχει διεύθυνση e-mail. Προσθέστε μία στα στοιχεία του ή αντιγράψτε τον σύνδεσμο.');
    const noClient = await newLead(null, [a.id]);
    expect((await send(noClient.id, [a.id], 'email')).statusCode).toBe(400);
    expect((await send(lead.id, [other.id], 'link')).json().title).toBe('Only the properties offered to this lead can be sent.');
    expect((await send(lead.id, [], 'link')).statusCode).toBe(400);
    const many = Array.from({ length: 21 }, (_, i) => i + 1);
    expect((await send(lead.id, many, 'link')).statusCode).toBe(400);
    expect((await send(999999, [a.id], 'link')).statusCode).toBe(404);
    expect((await send(lead.id, [a.id], 'link', payer)).statusCode).toBe(403);
    expect((await app.inject({ method: 'POST', url: `/api/lead/${lead.id}/shortlist`, payload: { objectIds: [a.id], channel: 'link' } })).statusCode).toBe(401);
    expect((await payer.get(`/api/lead/${lead.id}/shortlists`)).statusCode).toBe(403);
    // None of the refusals made a shortlist.
    expect(await db.select().from(shortlists).where(eq(shortlists.leadId, lead.id))).toEqual([]);
  });
});
