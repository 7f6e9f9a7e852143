import { describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { MAIL_KINDS, CULTURES } from '@crm/contract';
import { accounts, users } from '../db/schema/index.ts';
import { createTestApp, patchField } from '../../test/harness.ts';
import { parseMail, type ParsedMail } from '../../test/mime.ts';
import { LOGO_CID, composeMail } from './compose.ts';
import { readAgencyIdentity } from './mail-people.ts';

/** Mail as a person would write it: multipart, the agency's identity, the reader's language and grammar, the agent's name. */
const t = await createTestApp({ PUBLIC_URL: 'https://crm.agency.test', PAYMENTS_HOST: 'pay.agency.test' });
const { app, db } = t;
// The office's first sign-in is called "admin": its name must never reach a client.
const admin = await t.user({ roles: ['admin'], email: 'admin@agency.test' });
const employee = await t.user({ roles: ['employee'] });
const [person] = await db.insert(accounts).values({ firstName: 'Ελένη', lastName: 'Αγαπίου', firstNameEng: 'Eleni', lastNameEng: 'Agapiou', isEmploye: true, phones: ['+30 697 000 2222'], emails: ['eleni@thermaikos.gr'] }).returning();
await db.update(users).set({ accountId: person!.id }).where(eq(users.id, admin.id));
await db.execute(sql`update site_settings set name = 'Ακίνητα Θερμαϊκός', phone = '+30 2310 123456', email = 'info@thermaikos.gr', address = 'Λεωφόρος Νίκης 10, Θεσσαλονίκη', licence = '123456789000', tax_number = '094259216' where id = 1`);

const mailTo = async (to: string): Promise<ParsedMail> => {
  await t.lastMailTo(to);
  return parseMail(t.outbox().filter((m) => m.text.includes(`To: ${to}`)).at(-1)!.text);
};
const part = (m: ParsedMail, type: string) => m.parts.find((p) => p.type === type)?.text ?? '';

async function invite(fields: Record<string, unknown>) {
  const res = await admin.post('/api/account/add', { hasTransactions: true, ...fields });
  expect(res.statusCode, res.body).toBe(200);
  const id = res.json().id as number;
  const sent = await admin.get(`/api/transactions/sendInvitation/${id}`, { lang: 'en' });
  expect(sent.statusCode, sent.body).toBe(200);
  return id;
}

describe('mail a person would write', () => {
  it('is multipart with a text and an HTML part, from the agency, greets a Greek client in the vocative and is signed by the agent', async () => {
    const id = await invite({ firstName: 'Στέφανος', lastName: 'Παπαδόπουλος', email: 'stefanos@example.gr' });
    const m = await mailTo('stefanos@example.gr');
    expect(m.type).toBe('multipart/alternative');
    expect(m.header('From')).toBe('Ακίνητα Θερμαϊκός <crm@localhost>');
    const text = part(m, 'text/plain');
    const html = part(m, 'text/html');
    for (const body of [text, html]) {
      expect(body).toContain('Αγαπητέ Στέφανε,');
      expect(body).toContain('Ελένη Αγαπίου');
      expect(body).toContain('+30 697 000 2222');
      expect(body).toContain('Ακίνητα Θερμαϊκός');
      expect(body).toContain('Αρ. ΓΕΜΗ 123456789000');
      expect(body).toContain('ΑΦΜ 094259216');
      expect(body).toContain('Λεωφόρος Νίκης 10, Θεσσαλονίκη');
      expect(body).not.toMatch(/admin/i);
      expect(body).not.toContain('Αγαπητέ/ή');
    }
    // Readable on a phone, and nothing a mail program would block.
    expect(html).toContain('name="viewport"');
    expect(html).not.toMatch(/<img[^>]+src="http/);
    expect(html).not.toMatch(/<script/i);
    // No logo set: the header is the agency's name, no image.
    expect(html).not.toContain('<img');
    // The account had no language: the one its name suggests is kept as a suggestion the agent can change.
    expect((await admin.get(`/api/account/edit/${id}`)).json().dto.language).toBe('el');
  });

  it('writes to a Cyrillic name in Russian, by first name and patronymic', async () => {
    const id = await invite({ firstName: 'Иван', middleName: 'Петрович', lastName: 'Смирнов', email: 'ivan@example.ru' });
    const m = await mailTo('ivan@example.ru');
    expect(m.header('Subject')).toBe('Приглашение в Agency Payments');
    expect(part(m, 'text/plain')).toMatch(/^Уважаемый Иван Петрович!\n/);
    // Signed in Latin letters, as the agent's account also holds the name: a Russian reader cannot read Greek ones.
    expect(part(m, 'text/plain')).toContain('С уважением,\nEleni Agapiou\n');
    expect(part(m, 'text/html')).toContain('Уважаемый Иван Петрович!');
    expect((await admin.get(`/api/account/edit/${id}`)).json().dto.language).toBe('ru');
    const maria = await invite({ firstName: 'Мария', middleName: 'Ивановна', lastName: 'Петрова', email: 'maria@example.ru' });
    expect(maria).toBeGreaterThan(id);
    expect(part(await mailTo('maria@example.ru'), 'text/plain')).toMatch(/^Уважаемая Мария Ивановна!\n/);
  });

  it('greets a Latin name in a Greek mail by the gender the account states, and keeps the gender as the form sent it', async () => {
    const id = await invite({ firstName: 'Mary', lastName: 'Johnson', language: 'el', gender: 'female', email: 'mary@example.com' });
    const m = await mailTo('mary@example.com');
    expect(part(m, 'text/plain')).toMatch(/^Αγαπητή Mary,\n/);
    expect(part(m, 'text/html')).toContain('Αγαπητή Mary,');
    const account = (await admin.get(`/api/account/edit/${id}`)).json().dto;
    expect(account.gender).toBe('female');
    // Stated otherwise, the next mail follows; an unknown value is refused.
    const changed = await admin.post('/api/account/update', { id, version: account.version, gender: 'male' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await admin.post('/api/account/update', { id, version: changed.json().version, gender: 'other' })).statusCode).toBe(400);
    // One field at a time, as the account's page edits it: the choices named in the reader's language, an unknown one refused.
    const list = (await admin.get(`/api/account/editRequestSelectList?id=${id}&fieldName=gender`, { lang: 'el' })).json();
    expect(list.selectList.map((o: { text: string }) => o.text)).toEqual(['Άνδρας', 'Γυναίκα']);
    expect((await patchField(admin, 'account', id, 'gender', 'other')).statusCode).toBe(400);
    const unset = await patchField(admin, 'account', id, 'gender', null);
    expect(unset.statusCode, unset.body).toBe(200);
    expect((await admin.get(`/api/account/edit/${id}`)).json().dto.gender).toBeNull();
    expect((await patchField(admin, 'account', id, 'gender', 'male')).statusCode).toBe(200);
    expect((await admin.get(`/api/transactions/sendInvitation/${id}`, { lang: 'en' })).statusCode).toBe(200);
    expect(part(await mailTo('mary@example.com'), 'text/plain')).toMatch(/^Αγαπητέ Mary,\n/);
    // The change is in the action log, as every change of an account.
    const log = await db.execute(sql`select data from action_log where entity = 'Account' and entity_id = ${id} order by id`);
    expect(log.rows.map((r) => (r as { data: { gender?: string } | null }).data?.gender).filter(Boolean)).toEqual(['female', 'male']);
  });

  it('shows the agency\'s logo as an inline attachment, never a remote image', async () => {
    const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
    const agency = { ...(await readAgencyIdentity(app)), logo: { contentType: 'image/png', base64: png.toString('base64') } };
    const tr = (key: string, params?: Record<string, string | number>) => app.translator.t('en', key, params);
    const mail = composeMail({ to: 'logo@example.gr', culture: 'en', t: tr, agency, agent: { fullName: 'Eleni Agapiou', phone: '+30 697 000 2222' }, recipient: { firstName: 'Emma' }, subject: 'Our logo', body: [{ p: 'Hello there.' }] });
    await app.mailer.send(mail);
    const m = await mailTo('logo@example.gr');
    const logo = m.parts.find((p) => p.type === 'image/png');
    expect(logo, 'the logo part').toBeDefined();
    expect(logo!.headers).toMatch(new RegExp(`Content-ID: <${LOGO_CID}>`, 'i'));
    expect(logo!.headers).toMatch(/Content-Disposition: inline/i);
    expect(logo!.body.equals(png)).toBe(true);
    const html = part(m, 'text/html');
    expect(html).toContain(`src="cid:${LOGO_CID}"`);
    expect(html).not.toMatch(/<img[^>]+src="http/);
    expect(part(m, 'text/plain')).toContain('Dear Emma,');
    expect(m.parts.map((p) => p.type)).toEqual(expect.arrayContaining(['text/plain', 'text/html', 'image/png']));
  });
});

describe('GET /api/SiteSettings/mailPreview', () => {
  it('writes each kind of mail in each language for an office admin, with made-up details and the agency\'s own', async () => {
    for (const kind of MAIL_KINDS) {
      for (const language of CULTURES) {
        const res = await admin.get(`/api/SiteSettings/mailPreview?kind=${kind}&language=${language}`);
        expect(res.statusCode, `${kind} ${language}: ${res.body}`).toBe(200);
        const p = res.json();
        expect(p.subject.length, `${kind} ${language}`).toBeGreaterThan(3);
        expect(p.html).toContain('<!DOCTYPE html>');
        expect(p.html).toContain(`lang="${language}"`);
        expect(p.text).toContain(language === 'el' ? 'Με εκτίμηση,' : language === 'ru' ? 'С уважением,' : 'Kind regards,');
        expect(p.text).not.toMatch(/admin/i);
        expect(p.fromName).toBe('Ακίνητα Θερμαϊκός');
      }
    }
    const el = (await admin.get('/api/SiteSettings/mailPreview?kind=shortlist&language=el')).json();
    expect(el.text).toMatch(/^Αγαπητέ Γιώργο,\n/);
    expect(el.text).toContain('Ελένη Αγαπίου');
    const ru = (await admin.get('/api/SiteSettings/mailPreview?kind=approval&language=ru')).json();
    expect(ru.text).toMatch(/^Уважаемый Иван Петрович!\n/);
  });

  it('is refused to everyone but an office admin, and to an unknown kind', async () => {
    expect((await employee.get('/api/SiteSettings/mailPreview?kind=reset&language=en')).statusCode).toBe(403);
    expect((await t.client().get('/api/SiteSettings/mailPreview?kind=reset&language=en')).statusCode).toBe(401);
    expect((await admin.get('/api/SiteSettings/mailPreview?kind=spam&language=en')).statusCode).toBe(400);
  });
});
