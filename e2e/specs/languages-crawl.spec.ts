import { expect, test, type APIRequestContext, type Page, type Response } from '@playwright/test';
import { auth, createObject, expectAccessible, openAs } from '../fixtures.ts';

/**
 * Every screen of the demo agency, read in each language, shows no text of another language but
 * the agency's data: people's names, addresses, e-mails, references and what the staff wrote
 * (a property's main title and description, a to-do, a note, a comment: the demo's staff write them
 * in Greek, the agency's working language, and every screen shows them as written). A property's
 * English texts are not data here: an English screen names a property by its English title, and
 * another screen marks them with their language (lang="en"). What is data is
 * read from the answers the screen was drawn from (its calls, or the server's first paint), by
 * the field it came in; everything else on the screen is the interface's and must be in the
 * reader's language. One run lists every offender on every screen.
 */
type Lang = 'en-UK' | 'el' | 'ru';
const LANGS: Lang[] = ['en-UK', 'el', 'ru'];

const LISTS = [
  '/CRM', '/Objects', '/Objects/Search', '/ObjectKeys', '/Owners', '/Clients', '/Partners', '/Professionals', '/Employes', '/Sources', '/AllAccounts',
  '/Leads', '/Alerts', '/Viewing', '/Deals', '/Deals/Board', '/Reservations', '/Reservations/Availability', '/Payments', '/DocumentList', '/Calendar',
  '/Reports', '/Settings', '/ActionLog', '/Jobs', '/Import',
];
/** A record of each kind: the first one a list links to. */
const RECORDS: [list: string, link: RegExp][] = [
  ['/Objects', /^\/Objects\/View\/\d+$/],
  ['/Owners', /^\/Accounts\/View\/\d+$/],
  ['/Clients', /^\/Accounts\/View\/\d+$/],
  ['/Partners', /^\/Accounts\/View\/\d+$/],
  ['/Professionals', /^\/Accounts\/View\/\d+$/],
  ['/Employes', /^\/Accounts\/View\/\d+$/],
  ['/Leads', /^\/Leads\/View\/\d+$/],
  ['/Alerts', /^\/Alerts\/\d+$/],
  ['/Viewing', /^\/Viewing\/Edit\/\d+$|^\/Viewing\/\d+$/],
  ['/Deals', /^\/Deals\/(Edit\/)?\d+$/],
  ['/Reservations', /^\/Reservations\/(Edit\/)?\d+$/],
  ['/ObjectKeys', /^\/ObjectKeys\/\d+$/],
  ['/Payments', /^\/Payments\/View\/\d+$/],
];

/**
 * Latin words a Greek or Russian screen may show: names of products and formats the trade writes in
 * Latin letters. Keep it short: anything else is a text to translate.
 */
const ALLOWED_LATIN = new Set(['crm', 'pdf', 'xlsx', 'csv', 'xml', 'api', 'url', 'ical', 'ics', 'smtp', 'imap', 'excel', 'viber', 'whatsapp', 'sms', 'telegram', 'google', 'www', 'http', 'https', 'openapi', 'mydata', 'png', 'jpeg', 'jpg', 'webp', 'gif', 'uid', 'tls', 'cc', 'eidas', 'byte', 'bytes']);

/**
 * The fields whose values are the agency's data, shown as stored: names, addresses, contacts, what staff
 * wrote, an action's message (the record's name as logged: a document sent for signature in its own
 * language; the fixed messages are translated by key).
 */
const DATA_KEY = /name|^(country|nationality|companyType|awaiting|problem|title|titleRu|objectTitle|description|descriptionRu|internalNotes|notes?|comments?|text|what|who|subject|displayName|firstName|lastName|middleName|fatherName|fullName|name|owner|ownerName|client|clientDisplayName|sourceDisplayName|assigned|assignedTo|assignedName|createdBy|modifiedBy|actionBy|readedBy|holder|tenant|address|addresses|displayAddress|street|city|zipCode|location|locationName|place|placeName|area|email|emails|phone|phones|mobile|website|fileName|descr|objectDescr|accountName|employeName|agentName|userName|username|reason|publishError|result|answer|series|uid|mark|userId|imapFolder|imapHost|smtpHost|imapUser|smtpUser|snippet|message|sha256|signedSha256|hint|linkId|userAgent)$/i;

const WORD = /[\p{L}][\p{L}\p{M}'’]*/gu;
const GREEK = /[\u0370-\u03FF\u1F00-\u1FFF]/;
const CYRILLIC = /[\u0400-\u04FF]/;
const LATIN = /^[A-Za-z]/;

/** The words of every data value in an answer (walked to any depth). */
function collectData(value: unknown, into: Set<string>, key = '') {
  if (typeof value === 'string') {
    if (DATA_KEY.test(key)) for (const w of value.match(WORD) ?? []) into.add(w.toLowerCase());
  } else if (Array.isArray(value)) for (const v of value) collectData(v, into, key);
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) collectData(v, into, /^\d+$/.test(k) ? key : k);
}

/** Whether a word on a screen in `lang` belongs to another language. */
function foreign(word: string, lang: Lang): boolean {
  if (lang === 'en-UK') return GREEK.test(word) || CYRILLIC.test(word);
  if (GREEK.test(word) && lang === 'ru') return true;
  if (CYRILLIC.test(word) && lang === 'el') return true;
  return LATIN.test(word) && word.length >= 3 && !ALLOWED_LATIN.has(word.toLowerCase());
}

/** The texts a reader sees on the screen: visible text, placeholders, labels for assistive technology, tooltips. */
async function screenTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const html = document.documentElement.lang;
    const shown = (el: Element) => {
      if (el.closest('script, style, noscript, template, [aria-hidden="true"], [translate="no"]')) return false;
      const l = el.closest('[lang]')?.getAttribute('lang');
      if (l && l !== html) return false;
      const r = (el as HTMLElement).getClientRects();
      return r.length > 0 && getComputedStyle(el).visibility !== 'hidden';
    };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const t = n.textContent?.trim();
      if (t && n.parentElement && shown(n.parentElement)) out.push(t);
    }
    for (const el of document.body.querySelectorAll('[placeholder], [aria-label], [title]')) {
      if (!shown(el)) continue;
      for (const a of ['placeholder', 'aria-label', 'title']) {
        const v = el.getAttribute(a)?.trim();
        if (v) out.push(v);
      }
    }
    out.push(document.title);
    return out;
  });
}

/**
 * E-mails, web addresses, paths, the server's settings (BACKUPS=false), codes (TH-0043), the product's
 * name, the map's credit and the columns of the texts' spreadsheet are no one's language; nor is
 * "e-mail", which Greek and Russian offices write so.
 */
const neutral = (text: string) =>
  text
    .replace(/\S+@\S+/g, ' ')
    .replace(/\S*\/\S+/g, ' ')
    .replace(/\b[A-Z][A-Z_]+=\S+/g, ' ')
    // A system error as the system wrote it for the administrator ("EEXIST: file already exists, mkdir …"), a
    // server setting named (PUBLIC_URL, BACKUP_DIR) and an error's code alone are no one's language either.
    .replace(/\bE[A-Z]{3,}\b:.*$/g, ' ')
    .replace(/\b[A-Z][A-Z0-9]*_[A-Z0-9_]+\b|\bE[A-Z]{3,}\b/g, ' ')
    .replace(/\be-mail\b|© OpenStreetMap contributors|\bkey, en, el, ru\b/gi, ' ')
    .replace(/https?:\/\/\S+|\b[\w-]+(\.[\w-]+)+\/?\S*/g, ' ')
    .replace(/\b[A-Z]{1,5}-\d+\b/g, ' ')
    .replace(/\bAgency CRM\b/g, ' ');

/** The names of every person and company of the agency (the lists show them as entered, in any script). */
async function agencyNames(request: APIRequestContext, token: string, into: Set<string>) {
  const res = await request.get('/api/account', { params: { perPage: 1000000, currentPage: 1 }, headers: { authorization: `Bearer ${token}` } });
  expect(res.ok(), await res.text()).toBeTruthy();
  const { items } = (await res.json()) as { items: Record<string, unknown>[] };
  expect(items.length).toBeGreaterThan(100);
  collectData(items, into);
}

/**
 * The pages the agency's clients open from a link, without signing in: a mandate to sign and the
 * owner's report, made for this run on a new property of an owner who reads `lang`.
 */
async function clientPages(request: APIRequestContext, token: string, lang: Lang): Promise<string[]> {
  const culture = lang === 'en-UK' ? 'en' : lang;
  const ok = async (res: Awaited<ReturnType<APIRequestContext['post']>>) => {
    expect(res.ok(), await res.text()).toBeTruthy();
    return (await res.json()) as { id: number; url: string };
  };
  const flat = await createObject(request, token, { area: 64, forSale: true, salePrice: 142000 });
  const email = `crawl-owner-${lang}-${Date.now()}@example.gr`;
  const owner = await ok(await request.post('/api/account/add', { data: { firstName: 'Δέσποινα', lastName: `Αλεξίου${Date.now()}`, isOwner: true, email, language: culture }, headers: auth(token) }));
  const mandate = await ok(await request.post('/api/Mandate/update', { data: { objectId: flat.id, kind: 'exclusive', startDate: '2026-11-01', endDate: '2027-05-01', askingPrice: 142000, commissionPercent: 2, owners: [{ accountId: owner.id }] }, headers: auth(token) }));
  const sign = await ok(await request.post('/api/SignRequest/send', { data: { source: 'mandate', id: mandate.id, culture, name: 'Δέσποινα Αλεξίου', email }, headers: auth(token) }));
  const report = await ok(await request.post(`/api/ownerReport/${flat.id}/link`, { data: {}, headers: auth(token) }));
  return [new URL(sign.url).pathname, new URL(report.url).pathname];
}

test.describe.configure({ mode: 'parallel' });

for (const lang of LANGS) {
  test(`every screen in ${lang} speaks ${lang} but for the agency's data`, async ({ browser, request, baseURL }) => {
    test.setTimeout(600_000);
    const ctx = await browser.newContext();
    const { page, token } = await openAs(ctx, request, baseURL!, lang);
    const data = new Set<string>();
    await agencyNames(request, token, data);
    const pending: Promise<void>[] = [];
    page.on('response', (r: Response) => {
      const url = r.url();
      if (!url.includes('/api/') || /\/api\/localization/i.test(url) || !(r.headers()['content-type'] ?? '').includes('json')) return;
      pending.push(r.json().then((j) => collectData(j, data), () => undefined));
    });
    const offenders: string[] = [];

    async function read(path: string) {
      const res = await page.goto(path);
      // The data of a screen the server drew came with its HTML.
      const first = (await res?.text())?.match(/<script[^>]*id="crm-first-paint"[^>]*>([\s\S]*?)<\/script>/)?.[1];
      if (first) collectData(JSON.parse(first), data);
      await page.waitForLoadState('networkidle');
      await expect(page.locator('.mantine-Loader-root')).toHaveCount(0);
      await Promise.all(pending.splice(0));
      const seen = new Set<string>();
      for (const text of await screenTexts(page)) {
        for (const w of neutral(text).match(WORD) ?? []) {
          if (!foreign(w, lang) || data.has(w.toLowerCase()) || seen.has(w)) continue;
          seen.add(w);
          offenders.push(`${path}: "${w}" in "${text.slice(0, 120)}"`);
        }
      }
    }

    for (const path of LISTS) await read(path);
    for (const [list, link] of RECORDS) {
      await page.goto(list);
      // The list's first record, once its rows are drawn.
      const found = await page
        .waitForFunction((src) => [...document.querySelectorAll('a[href]')].map((a) => a.getAttribute('href') ?? '').find((h) => new RegExp(src).test(h)) ?? null, link.source, { timeout: 15_000 })
        .catch(() => null);
      const href = found ? ((await found.jsonValue()) as string) : null;
      if (!href) {
        offenders.push(`${list}: no record linked (${link})`);
        continue;
      }
      await read(href);
    }
    for (const path of await clientPages(request, token, lang)) await read(path);
    await read('/CRM');
    await expectAccessible(page, `home in ${lang}`);
    expect(offenders, `texts in another language on ${lang} screens:\n${offenders.join('\n')}`).toEqual([]);
    await ctx.close();
  });
}
