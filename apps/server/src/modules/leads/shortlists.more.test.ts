import { describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { accounts, actionLog, alerts, assignments, leadObjects, leads, locations, objects, shortlistObjects, shortlists, users } from '../../db/schema/index.ts';
import { createTestApp } from '../../../test/harness.ts';
import { insertObject } from '../../../test/records.ts';

/** Shortlists: properties that went off the market, who is told of an answer, sending again, the page's queries. */
const t = await createTestApp({ PUBLIC_URL: 'https://crm.agency.test' });
const { app, db } = t;
const agent = await t.user({ roles: ['employee'] });

const [place] = await db.insert(locations).values({ level: 2, nameEn: 'Pylaia', nameEl: 'Πυλαία', nameRu: 'Пилея', textEn: 'Pylaia', textEl: 'Πυλαία', textRu: 'Пилея' }).returning();
let seq = 0;
async function newObject(values: Record<string, unknown> = {}) {
  seq++;
  const o = await insertObject(db, {
    title: `House ${seq} with a garden`,
    description: 'Quiet street, garden, parking.',
    forSale: true,
    salePrice: 240000,
    forRent: true,
    rentPrice: 900,
    area: 120,
    bedrooms: 3,
    locationId: place!.id,
    active: true,
    ...values,
  });
  return o!;
}
async function newLead(objectIds: number[], lead: Record<string, unknown> = { forRent: true }, account: Partial<typeof accounts.$inferInsert> = {}) {
  seq++;
  const [a] = await db.insert(accounts).values({ firstName: `Ελένη${seq}`, lastName: `Πελάτισσα${seq}`, ...account }).returning();
  const [l] = await db.insert(leads).values({ accountId: a!.id, ...lead } as never).returning({ id: leads.id });
  if (objectIds.length) await db.insert(leadObjects).values(objectIds.map((objectId, position) => ({ leadId: l!.id, objectId, position })));
  return { id: l!.id, account: a! };
}
async function sendLink(leadId: number, objectIds: number[]) {
  const res = await agent.post(`/api/lead/${leadId}/shortlist`, { objectIds, channel: 'link' });
  expect(res.statusCode, res.body).toBe(200);
  return /\/Shortlist\/([A-Za-z0-9_-]{43})$/.exec(res.json().url as string)![1]!;
}
const view = (token: string, lang = 'en') => app.inject({ url: `/api/shortlist/${token}`, headers: { 'accept-language': lang } });
const answer = (token: string, objectId: number, a: 'interested' | 'notForMe' | null, lang = 'en') =>
  app.inject({ method: 'POST', url: `/api/shortlist/${token}/answer`, payload: { objectId, answer: a }, headers: { 'accept-language': lang } });
type Item = { objectId: number; available: boolean; price: unknown; publicUrl: string | null; answer: string | null };

describe('shortlists: loose ends', () => {
  it('shows a property sold, let or taken off the market as no longer available, without price, and refuses answers for it', async () => {
    const free = await newObject();
    const sold = await newObject();
    const inactive = await newObject({ active: false });
    const let_ = await newObject({ rented: true });
    // Let now, but free from a day to come: still offered.
    const freeLater = await newObject({ rented: true, dateAvailable: '2099-01-01' });
    const gone = await newObject();
    const lead = await newLead([free.id, sold.id, inactive.id, let_.id, freeLater.id, gone.id]);
    const token = await sendLink(lead.id, [free.id, sold.id, inactive.id, let_.id, freeLater.id, gone.id]);
    // Answered while it could be had.
    expect((await answer(token, sold.id, 'interested')).statusCode).toBe(200);
    await db.update(objects).set({ sold: true } as never).where(eq(objects.id, sold.id));
    await db.delete(objects).where(eq(objects.id, gone.id));

    const items = (await view(token)).json().items as Item[];
    const by = new Map(items.map((i) => [i.objectId, i]));
    // A deleted property has left the list with its rows.
    expect(items.map((i) => i.objectId)).toEqual([free.id, sold.id, inactive.id, let_.id, freeLater.id]);
    expect(by.get(free.id)).toMatchObject({ available: true, price: { service: 'rent', price: 900 } });
    expect(by.get(freeLater.id)).toMatchObject({ available: true, price: { service: 'rent', price: 900 } });
    for (const id of [sold.id, inactive.id, let_.id]) expect(by.get(id), String(id)).toMatchObject({ available: false, price: null, publicUrl: null });

    // Answers for them are refused with a translated text, and change nothing.
    const alertsBefore = (await db.select().from(alerts).where(and(eq(alerts.entity, 'Lead'), eq(alerts.entityId, lead.id)))).length;
    for (const id of [sold.id, inactive.id, let_.id]) {
      const r = await answer(token, id, 'notForMe', 'el');
      expect(r.statusCode, String(id)).toBe(409);
      expect(r.json().title).toBe('Αυτό το ακίνητο δεν είναι πλέον διαθέσιμο.');
    }
    expect((await answer(token, sold.id, null, 'ru')).json().title).toBe('Этот объект больше не доступен.');
    expect((await answer(token, gone.id, 'interested')).statusCode).toBe(404);
    const stored = await db.select().from(shortlistObjects).where(eq(shortlistObjects.objectId, sold.id));
    expect(stored.map((s) => s.answer)).toEqual(['interested']);
    expect((await db.select().from(alerts).where(and(eq(alerts.entity, 'Lead'), eq(alerts.entityId, lead.id)))).length).toBe(alertsBefore);
    // The available ones still take answers.
    expect((await answer(token, free.id, 'interested')).statusCode).toBe(200);

    // To a buyer a let property for sale is still to be had (sold with its tenant); a sold one is not.
    const buyer = await newLead([let_.id, sold.id], { forPurchase: true });
    const buyerItems = (await view(await sendLink(buyer.id, [let_.id, sold.id]))).json().items as Item[];
    expect(buyerItems.map((i) => [i.objectId, i.available])).toEqual([
      [let_.id, true],
      [sold.id, false],
    ]);
    expect(buyerItems[0]!.price).toMatchObject({ service: 'sale', price: 240000 });
    // The shortlists themselves are untouched.
    expect((await db.select().from(shortlists).where(eq(shortlists.leadId, lead.id))).length).toBe(1);
  });

  it("mails a client's answer to the lead's assigned agents in their language, else to the one who sent it", async () => {
    // An agent assigned to the lead, signing in in Greek; another assigned one without any address.
    const greek = await t.user({ roles: ['employee'], language: 'el' });
    const [acc] = await db.insert(accounts).values({ firstName: 'Γιώργος', lastName: 'Σύμβουλος', isEmploye: true } as never).returning();
    await db.update(users).set({ accountId: acc!.id }).where(eq(users.id, greek.id));
    const [silent] = await db.insert(accounts).values({ firstName: 'Χωρίς', lastName: 'Email', isEmploye: true } as never).returning();
    const o = await newObject();
    const lead = await newLead([o.id]);
    await db.insert(assignments).values([
      { parent: 2, parentId: lead.id, accountId: acc!.id },
      { parent: 2, parentId: lead.id, accountId: silent!.id },
    ]);
    const token = await sendLink(lead.id, [o.id]);
    const before = t.outbox().length;
    expect((await answer(token, o.id, 'interested')).statusCode).toBe(200);
    await app.jobs.drain();
    const mail = await t.lastMailTo(greek.email);
    expect(mail).toContain('Subject: =?UTF-8?');
    expect(mail).toContain(`ενδιαφέρεται για το ακίνητο #${String(o.ref).padStart(4, '0')}`);
    expect(mail).toContain(`https://crm.agency.test/Leads/View/${lead.id}`);
    const [alert] = await db.select().from(alerts).where(and(eq(alerts.entity, 'Lead'), eq(alerts.entityId, lead.id)));
    expect(mail).toContain(`https://crm.agency.test/Alerts/${alert!.id}`);
    // Only to the assigned agent with an address: not to the sender, not to the whole office.
    const sent = t.outbox().slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.text).not.toContain(`To: ${agent.email}`);
    // The same answer again (a repeated tap, or back and forth) makes no new alert and no new mail.
    expect((await answer(token, o.id, null)).statusCode).toBe(200);
    expect((await answer(token, o.id, 'interested')).statusCode).toBe(200);
    await app.jobs.drain();
    expect(t.outbox().length - before).toBe(1);

    // A lead with nobody assigned: the agent who sent it is told.
    const o2 = await newObject();
    const lead2 = await newLead([o2.id]);
    const token2 = await sendLink(lead2.id, [o2.id]);
    expect((await answer(token2, o2.id, 'notForMe')).statusCode).toBe(200);
    await app.jobs.drain();
    expect(await t.lastMailTo(agent.email)).toContain(`is not interested in property #${String(o2.ref).padStart(4, '0')}`);
  });

  it('sends a list again: a new link for the same properties still to be had, the old one withdrawn, the answers carried over', async () => {
    const a = await newObject();
    const b = await newObject();
    const c = await newObject();
    const lead = await newLead([a.id, b.id, c.id], { forRent: true }, { emails: ['eleni@example.gr'], language: 'el' });
    const again = (shortlistId: number, leadId = lead.id, lang = 'en') =>
      agent.post(`/api/lead/${leadId}/shortlist/${shortlistId}/again`, undefined, { lang });
    const res = await agent.post(`/api/lead/${lead.id}/shortlist`, { objectIds: [a.id, b.id, c.id], channel: 'email' });
    expect(res.statusCode, res.body).toBe(200);
    const oldToken = /\/Shortlist\/([A-Za-z0-9_-]{43})$/.exec(res.json().url as string)![1]!;
    const [old] = await db.select().from(shortlists).where(eq(shortlists.leadId, lead.id));
    expect((await answer(oldToken, a.id, 'interested')).statusCode).toBe(200);
    // Since then: one property sold, another no longer offered to the lead.
    await db.update(objects).set({ sold: true } as never).where(eq(objects.id, b.id));
    await db.delete(leadObjects).where(and(eq(leadObjects.leadId, lead.id), eq(leadObjects.objectId, c.id)));

    const r = await again(old!.id);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ email: 'eleni@example.gr', message: 'Sent to eleni@example.gr.' });
    const newToken = /\/Shortlist\/([A-Za-z0-9_-]{43})$/.exec(r.json().url as string)![1]!;
    expect(newToken).not.toBe(oldToken);
    // The mail went in the client's language with the new link.
    expect(await t.lastMailTo('eleni@example.gr')).toContain(r.json().url);
    // The old link no longer works; the new one has the property still to be had, with its answer.
    expect((await view(oldToken)).statusCode).toBe(410);
    const page = (await view(newToken)).json();
    expect(page.items.map((i: Item) => [i.objectId, i.answer])).toEqual([[a.id, 'interested']]);
    const rows = await db.select().from(shortlists).where(eq(shortlists.leadId, lead.id));
    expect(rows).toHaveLength(2);
    expect(rows.find((x) => x.id === old!.id)!.withdrawnOn).not.toBeNull();
    const logs = await db.select().from(actionLog).where(and(eq(actionLog.entity, 'Lead'), eq(actionLog.entityId, lead.id)));
    expect(logs.filter((l) => l.action === 'WithdrawShortlist')).toHaveLength(1);
    expect(logs.filter((l) => l.action === 'SendShortlist').at(-1)!.data).toMatchObject({ replaces: old!.id, objectIds: [a.id], channel: 'email' });

    // Sent again from a withdrawn one: a new link, nothing withdrawn twice.
    const newRow = rows.find((x) => x.id !== old!.id)!;
    expect((await again(old!.id)).statusCode).toBe(200);
    expect((await db.select().from(actionLog).where(and(eq(actionLog.entityId, lead.id), eq(actionLog.action, 'WithdrawShortlist')))).length).toBe(1);
    // Refused, changing nothing: nothing left to send, another lead's list, an unknown one.
    await db.update(objects).set({ active: false } as never).where(eq(objects.id, a.id));
    const count = (await db.select().from(shortlists).where(eq(shortlists.leadId, lead.id))).length;
    const none = await again(newRow.id, lead.id, 'el');
    expect(none.statusCode).toBe(400);
    expect(none.json().title).toBe('Κανένα από αυτά τα ακίνητα δεν είναι πλέον διαθέσιμο ή στα προτεινόμενα αυτού του ενδιαφέροντος· δεν υπάρχει κάτι για επαναποστολή.');
    const other = await newLead([a.id]);
    expect((await again(old!.id, other.id)).statusCode).toBe(404);
    expect((await again(999999)).statusCode).toBe(404);
    expect((await db.select().from(shortlists).where(eq(shortlists.leadId, lead.id))).length).toBe(count);
    // Only the list sent again is withdrawn: the other working link (sent from the first) still works.
    expect((await db.select().from(shortlists).where(eq(shortlists.id, newRow.id)))[0]!.withdrawnOn).toBeNull();
  });
});
