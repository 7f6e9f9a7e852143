import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { simpleParser } from 'mailparser';
import { ADMIN } from '../playwright.config.ts';
import { startFreshOffice } from '../fresh-office.ts';
import { expectAccessible, shortlistDemoLead } from '../fixtures.ts';
import { SignInPage } from '../pages/sign-in.ts';

/**
 * What the agency's clients see carries the agency, never the machine or a sign-in name (issue 45):
 * an office started as a hosted install would be (the demo agency, PUBLIC_URL set to its public
 * address), in Greek, English and Russian: the public site, the property sheet, a shortlist mail
 * (its HTML part opened in the browser, looked at and checked with axe) and the portal feed name the
 * agency, its numbers and the agent's full name; no "admin", no "localhost".
 */
const PUBLIC_URL = 'https://crm.thermaikos-homes.gr';

const LANGS = [
  { code: 'el', cookie: 'el', agency: 'Ακίνητα Θερμαϊκός', client: { firstName: 'Στέφανος', lastName: 'Αλεξίου' }, greeting: 'Αγαπητέ Στέφανε,', numbers: 'ΑΦΜ 094712341' },
  { code: 'en', cookie: 'en-UK', agency: 'Thermaikos Homes', client: { firstName: 'Emma', lastName: 'Clarke' }, greeting: 'Dear Emma,', numbers: 'VAT No. 094712341' },
  { code: 'ru', cookie: 'ru', agency: 'Thermaikos Homes', client: { firstName: 'Иван', middleName: 'Петрович', lastName: 'Петров' }, greeting: 'Уважаемый Иван Петрович!', numbers: 'ИНН (АФМ) 094712341' },
] as const;

/** "admin" as a word, once the agent's own e-mail address (a contact, not a sign-in name) is set aside. */
const signInName = (text: string) => /\badmin\b/i.test(text.replaceAll(ADMIN.email, ''));

async function json<T>(res: Awaited<ReturnType<APIRequestContext['get']>>): Promise<T> {
  expect(res.ok(), `${res.url()}: ${await res.text()}`).toBeTruthy();
  return (await res.json()) as T;
}

test('the agency, not the machine: public site, sheet, shortlist mail and feed in el, en and ru', async ({ browser, playwright }) => {
  test.setTimeout(420_000);
  const office = await startFreshOffice('agency-face', { DEMO_DATA: 'true', PUBLIC_URL });
  const api = await playwright.request.newContext({ baseURL: office.baseURL });
  try {
    const login = async (username: string, password: string) =>
      (await json<{ token: string }>(await api.post('/api/authenticate/login', { data: { username, password } }))).token;
    const token = await login(ADMIN.email, ADMIN.password);
    const headers = { authorization: `Bearer ${token}` };
    // The agent who sends: an employee with a sign-in of their own (the first administrator has no
    // account of a person, so a mail it sends is signed by the agency alone).
    // Signed in Greek letters for a Greek reader, in Latin ones (as the account also holds the name) for the others.
    const agentNames = { el: 'Ελένη Μαυρίδου', en: 'Eleni Mavridou', ru: 'Eleni Mavridou' } as const;
    const agentEmail = `eleni-${Date.now()}@thermaikos-homes.gr`;
    await json(await api.post('/api/account/add', { headers, data: { firstName: 'Ελένη', lastName: 'Μαυρίδου', firstNameEng: 'Eleni', lastNameEng: 'Mavridou', isEmploye: true, role: 'employee', email: agentEmail } }));
    await json(await api.post('/api/authenticate/setPassword', { headers, data: { email: agentEmail, password: 'agent-pass-12' } }));
    const agent = { authorization: `Bearer ${await login(agentEmail, 'agent-pass-12')}` };

    for (const [n, L] of LANGS.entries()) {
      const agentName = agentNames[L.code];
      // ---- a shortlist mailed to a client who reads this language
      const lead = await shortlistDemoLead(api, token, n);
      const { accountId } = await json<{ accountId: number }>(await api.get(`/api/lead/get/${lead.id}`, { headers }));
      const client = await json<{ dto: Record<string, unknown> & { version: number } }>(await api.get(`/api/account/edit/${accountId}`, { headers }));
      const email = `face-${L.code}-${Date.now()}@example.net`;
      await json(await api.post('/api/account/update', { headers, data: { id: accountId, version: client.dto.version, email, language: L.code, ...L.client } }));
      const sent = await json<{ url: string; email: string }>(
        await api.post(`/api/lead/${lead.id}/shortlist`, { headers: agent, data: { objectIds: [lead.objects[0]!.objectId], channel: 'email' } }),
      );
      expect(sent.email).toBe(email);
      expect(sent.url.startsWith(`${PUBLIC_URL}/Shortlist/`), sent.url).toBeTruthy();

      // The mail reaches the outbox through the job queue.
      const outbox = path.join(office.dataDir, 'outbox');
      await expect.poll(() => (fs.existsSync(outbox) ? fs.readdirSync(outbox).filter((f) => f.includes(email)).length : 0), { timeout: 30_000 }).toBe(1);
      const file = fs.readdirSync(outbox).find((f) => f.includes(email))!;
      const mail = await simpleParser(fs.readFileSync(path.join(outbox, file)), { keepCidLinks: true });
      expect(mail.from?.value[0]?.name).toBe(L.agency);
      const text = mail.text ?? '';
      const html = typeof mail.html === 'string' ? mail.html : '';
      expect(html, 'an HTML part').not.toBe('');
      expect(text.split('\n')[0]?.trim()).toBe(L.greeting);
      expect(text).toContain(agentName);
      expect(text).toContain(L.numbers);
      for (const part of [text, html, mail.subject ?? '']) {
        expect(part).not.toContain('localhost');
        expect(signInName(part), `"admin" in the mail: ${part.slice(0, 200)}`).toBe(false);
      }
      // The logo travels inside the mail (a CID part), never as a remote image a mail program blocks.
      const logo = mail.attachments.find((a) => a.contentDisposition === 'inline' && a.contentType.startsWith('image/'));
      expect(logo?.cid, 'an inline logo').toBeTruthy();
      expect(html).toContain(`cid:${logo!.cid}`);
      expect(html).not.toMatch(/<img[^>]+src="https?:/i);

      // Its HTML opened as a mail program shows it: the greeting, the property, the agency, the agent.
      const reader = await browser.newContext({ viewport: { width: 390, height: 844 } });
      const view = await reader.newPage();
      const shown = html.replaceAll(`cid:${logo!.cid}`, `data:${logo!.contentType};base64,${logo!.content.toString('base64')}`);
      await view.setContent(shown, { waitUntil: 'load' });
      await expect(view.locator('body')).toContainText(agentName);
      await expect(view.locator('body')).toContainText(L.agency);
      await expect(view.locator(`a[href^="${PUBLIC_URL}/Shortlist/"]`).first()).toBeVisible();
      await expect(view.locator('img').first()).toHaveJSProperty('complete', true);
      expect(await view.locator('img').first().evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
      // Readable on a phone: nothing wider than its screen.
      expect(await view.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await expectAccessible(view, `shortlist mail (${L.code})`, 'mail');
      await view.screenshot({ path: test.info().outputPath(`shortlist-mail-${L.code}.png`), fullPage: true });
      await reader.close();

      // ---- the public site, in the reader's letters
      const visitor = await browser.newContext({ baseURL: office.baseURL });
      const site = await visitor.newPage();
      await site.goto(`/listings?lang=${L.code}`);
      await expect(site).toHaveTitle(new RegExp(`${L.agency}$`));
      await expect(site.locator('footer')).toContainText(L.agency);
      expect(signInName(await site.locator('body').innerText())).toBe(false);
      for (const href of await site.locator('link[rel="canonical"], meta[property="og:url"]').evaluateAll((es) => es.map((e) => e.getAttribute('href') ?? e.getAttribute('content') ?? '')))
        expect(href.startsWith(PUBLIC_URL), href).toBeTruthy();
      await visitor.close();

      // ---- the property sheet an agent hands over
      // The agent signs in as on any day (the CRM's cookies are Secure under an https PUBLIC_URL), in
      // this language (a sign-in's language follows it from one session to the next).
      await json(await api.post('/api/UserSettings/Language', { headers: agent, data: { language: L.cookie } }));
      const staff = await browser.newContext({ baseURL: office.baseURL, viewport: { width: 1280, height: 800 } });
      await staff.addCookies([{ name: 'language', value: L.cookie, url: office.baseURL }]);
      const page = await staff.newPage();
      const signIn = new SignInPage(page);
      await signIn.open();
      await signIn.signIn(agentEmail, 'agent-pass-12', /\/CRM$/);
      await page.goto(`/Objects/Sheet/${lead.objects[0]!.objectId}`);
      const sheet = page.getByTestId('sheet');
      await expect(sheet.getByTestId('sheet-agency')).toContainText(L.agency);
      await expect(sheet.getByTestId('sheet-agency-numbers')).toContainText('094712341');
      await expect(sheet.getByTestId('sheet-agent')).toContainText(agentName);
      expect(signInName(await sheet.innerText())).toBe(false);
      await staff.close();
    }

    // ---- the portal feed: every address absolute on the public address, the agency named
    const feed = await api.get('/feed/listings.xml');
    expect(feed.ok()).toBeTruthy();
    const xml = await feed.text();
    expect(xml).not.toContain('localhost');
    expect(xml).toContain(`${PUBLIC_URL}/`);
    expect(signInName(xml)).toBe(false);
  } finally {
    await api.dispose();
    await office.stop();
  }
});
