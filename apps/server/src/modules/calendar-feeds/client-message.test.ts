import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { accounts, objects, users } from '../../db/schema/index.ts';
import { createTestApp, json } from '../../../test/harness.ts';

/**
 * A ready text for Viber, WhatsApp or SMS (issue 46): in the client's language with its greeting's
 * grammar, a viewing's confirmation from a viewing; its sending logged through the activity call.
 */
const t = await createTestApp();
const { db } = t;
await t.pool.query(`update site_settings set name = 'Thermaikos Homes', name_el = 'Θερμαϊκός'`);
const agent = await t.user({ roles: ['employee'] });
const [me] = await db.insert(accounts).values({ firstName: 'Στέφανος', lastName: 'Αγέντης', isEmploye: true }).returning({ id: accounts.id });
await db.update(users).set({ accountId: me!.id }).where(eq(users.id, agent.id));
const client = async (values: Record<string, unknown>) => (await db.insert(accounts).values({ isClient: true, phones: ['694 555 0101'], ...values } as never).returning({ id: accounts.id }))[0]!.id;
const giorgos = await client({ firstName: 'Γιώργος', lastName: 'Παπαδόπουλος' });
const ivan = await client({ firstName: 'Иван', middleName: 'Петрович', lastName: 'Иванов', language: 'ru' });
const anna = await client({ firstName: 'Anna', lastName: 'Schmidt', language: 'de', gender: 'female' });
const [flat] = await db.insert(objects).values({ title: 'Flat', address: 'Τσιμισκή 12' } as never).returning({ id: objects.id });
const lead = (await json(agent.post('/api/lead/add', { accountId: giorgos }))).id as number;
const viewing = await json(agent.post('/api/Viewing/update', { demandId: lead, dateOfViewing: '2027-03-05T11:30:00', results: [{ objectId: flat!.id, result: 1 }] }));

describe('a message to a client', () => {
  it('greets the client in their own language, whatever the reader’s: Greek vocative, Russian name and patronymic, others in English', async () => {
    expect(await json(agent.get(`/api/account/${giorgos}/messageText`, { lang: 'en' }))).toEqual({
      culture: 'el',
      text: 'Αγαπητέ Γιώργο,\nΣας γράφω από το μεσιτικό γραφείο «Θερμαϊκός».\nΣτέφανος Αγέντης',
    });
    expect((await json(agent.get(`/api/account/${ivan}/messageText`))).text).toBe('Уважаемый Иван Петрович!\nПишу вам из агентства «Thermaikos Homes».\nΣτέφανος Αγέντης');
    expect(await json(agent.get(`/api/account/${anna}/messageText`, { lang: 'el' }))).toMatchObject({ culture: 'en', text: expect.stringMatching(/^Dear Anna,\nI am writing to you from Thermaikos Homes\.\nΣτέφανος Αγέντης$/) });
  });

  it('from a viewing, confirms its day, time and address; a viewing of another client is a 404', async () => {
    const m = await json(agent.get(`/api/account/${giorgos}/messageText?viewingId=${viewing.id}`));
    expect(m.text).toBe('Αγαπητέ Γιώργο,\nΕπιβεβαιώνουμε το ραντεβού για την υπόδειξη στις 5/3/2027, ώρα 11:30, στη διεύθυνση Τσιμισκή 12.\nΑν προκύψει κάποια αλλαγή, ενημερώστε με.\nΣτέφανος Αγέντης, Θερμαϊκός');
    expect((await agent.get(`/api/account/${ivan}/messageText?viewingId=${viewing.id}`)).statusCode).toBe(404);
    expect((await agent.get(`/api/account/999999/messageText`)).statusCode).toBe(404);
  });

  it('is logged as a done activity on the account and the viewing, in the action log', async () => {
    const text = (await json(agent.get(`/api/account/${giorgos}/messageText?viewingId=${viewing.id}`))).text as string;
    const made = await json(
      agent.post('/api/activity/add', { entityType: 2, id: giorgos, description: `Message sent via WhatsApp\n\n${text}`, done: true, date: '2026-11-27T10:00:00', doneDate: '2026-11-27T10:00:00', links: [{ entity: 2, id: giorgos }, { entity: 7, id: viewing.id }] }),
    );
    const list = await json(agent.get(`/api/activity?parent=7&parentId=${viewing.id}&done=all&text=&perPage=10&currentPage=1`));
    expect(list.items.map((a: { id: number }) => a.id)).toContain(made.id);
    const log = (await t.pool.query(`select action from action_log where entity = 'Activity' and entity_id = $1`, [made.id])).rows;
    expect(log.map((r) => r.action)).toContain('Create');
  });
});
