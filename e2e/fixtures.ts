import fs from 'node:fs';
import path from 'node:path';
import { expect, type Page, type APIRequestContext, type Browser, type BrowserContext } from '@playwright/test';
import axe, { type AxeResults } from 'axe-core';
import { ADMIN, E2E_DATA_DIR } from './playwright.config.ts';
import { SignInPage } from './pages/sign-in.ts';

export { ADMIN };

/** Signs in on the sign-in screen as a person would (the page object's way), landing on the home page. */
export async function signIn(page: Page, email = ADMIN.email, password = ADMIN.password) {
  const screen = new SignInPage(page);
  await screen.open();
  await screen.signIn(email, password);
}

/**
 * A new browser context signed in as the admin with an API token (the session the app keeps in
 * localStorage), reading in `language` (its cookie), so the admin's saved language is never
 * touched. Options: the viewport (1280 x 800 unless given), a phone's touch and mobile layout
 * (isMobile), the browser's own locale, cookies to preset (values written as the app writes them,
 * JSON), whether downloads are kept, and another user's session (their sign-in answer, as the app
 * keeps it) in place of the admin's.
 */
export async function signedIn(
  browser: Browser,
  baseURL: string,
  token: string,
  language: string,
  opts: { viewport?: { width: number; height: number }; isMobile?: boolean; locale?: string; cookies?: Record<string, unknown>; acceptDownloads?: boolean; session?: object } = {},
): Promise<BrowserContext> {
  const viewport = opts.viewport ?? { width: 1280, height: 800 };
  const phone = opts.isMobile ?? false;
  const ctx = await browser.newContext({ viewport, isMobile: phone, hasTouch: phone, ...(opts.locale ? { locale: opts.locale } : {}), ...(opts.acceptDownloads ? { acceptDownloads: true } : {}) });
  await ctx.addCookies([
    { name: 'language', value: language, url: baseURL },
    ...Object.entries(opts.cookies ?? {}).map(([name, value]) => ({ name, value: encodeURIComponent(JSON.stringify(value)), url: baseURL })),
  ]);
  // The first administrator's name, as the app's refresh from /api/authenticate/me keeps it (0034).
  const me = opts.session ?? { token, username: ADMIN.email.split('@')[0], userroles: ['admin'], branchId: null, language: null, accountId: null };
  await ctx.addInitScript((s) => window.localStorage.setItem('crm.session', s), JSON.stringify(me));
  return ctx;
}

/**
 * A screen opened by the holder of `token` in a browser of their own, reading in `language` (the
 * session, language and options as `signedIn` presets them): its context (the test closes it) and page.
 */
export async function openSignedIn(browser: Browser, baseURL: string, token: string, language: string, path: string, opts: Parameters<typeof signedIn>[4] = {}) {
  const ctx = await signedIn(browser, baseURL, token, language, opts);
  const page = await ctx.newPage();
  await page.goto(path);
  return { ctx, page };
}

/** The same as the administrator, signed in through the API first: with the admin's token. */
export async function openAsAdmin(browser: Browser, request: APIRequestContext, baseURL: string, language: string, path: string, opts: Parameters<typeof signedIn>[4] = {}) {
  const token = await apiToken(request);
  return { token, ...(await openSignedIn(browser, baseURL, token, language, path, opts)) };
}

/** Signs in through the API and answers the bearer token. */
export async function apiToken(request: APIRequestContext, email = ADMIN.email, password = ADMIN.password): Promise<string> {
  const res = await request.post('/api/authenticate/login', { data: { username: email, password } });
  expect(res.ok()).toBeTruthy();
  return (await res.json()).token as string;
}

let uniqueSeq = 0;
/** A name part nobody else uses in this run (letters only, so search and sorting treat it as a word). */
export function unique(prefix: string): string {
  const n = `${Date.now().toString(36)}${(uniqueSeq++).toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
  return prefix + n.replace(/\d/g, (d) => 'qwxyzjkvbh'[Number(d)]!);
}

/** The header that sends an API call as the holder of the token. */
export const auth = (token: string) => ({ authorization: `Bearer ${token}` });

/** The agency's today, "YYYY-MM-DD" in Europe/Athens (the day the screens call today). */
export const agencyToday = () => new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Athens' }).format(new Date());

/** A day n days from the agency's today, "YYYY-MM-DD". */
export const agencyDay = (n: number) => {
  const d = new Date(`${agencyToday()}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};

/** A new employee made by the admin, with a password set and signed in: their id, token and the sign-in answer (the session the web keeps). */
export async function newEmployee(request: APIRequestContext, adminToken: string, who: { email: string; lastName: string; firstName?: string }) {
  const added = await request.post('/api/account/add', { data: { firstName: 'Stefanos', ...who, isEmploye: true, role: 'employee' }, headers: auth(adminToken) });
  expect(added.ok(), await added.text()).toBeTruthy();
  const id = ((await added.json()) as { id: number }).id;
  const pw = await request.post('/api/authenticate/setPassword', { headers: auth(adminToken), data: { email: who.email, password: 'staff-pass-12' } });
  expect(pw.ok(), await pw.text()).toBeTruthy();
  const login = await request.post('/api/authenticate/login', { data: { username: who.email, password: 'staff-pass-12' } });
  expect(login.ok(), await login.text()).toBeTruthy();
  const session = (await login.json()) as { token: string };
  return { id, token: session.token, session };
}

/**
 * A screen opened by a new agent of the office (an employee without the admin role, made through the
 * API by the admin as the office makes one, signed in with their own password): their context (the
 * test closes it), page, id and token.
 */
export async function openAsAgent(browser: Browser, request: APIRequestContext, baseURL: string, language: string, path: string, opts: Parameters<typeof signedIn>[4] = {}) {
  const admin = await apiToken(request);
  const email = `${unique('agent').toLowerCase()}@example.com`;
  const agent = await newEmployee(request, admin, { email, lastName: unique('Agent') });
  const opened = await openSignedIn(browser, baseURL, agent.token, language, path, { ...opts, session: agent.session });
  return { ...opened, id: agent.id, token: agent.token };
}

/** A client with a phone and a lead of theirs, made by the holder of the token. */
export async function clientWithLead(request: APIRequestContext, token: string, lastName: string, phone = '+30 694 555 0101') {
  const client = await request.post('/api/account/add', { data: { lastName, firstName: 'Eleni', isClient: true, phone }, headers: auth(token) });
  expect(client.ok(), await client.text()).toBeTruthy();
  const clientId = ((await client.json()) as { id: number }).id;
  const lead = await request.post('/api/lead/add', { data: { accountId: clientId }, headers: auth(token) });
  expect(lead.ok(), await lead.text()).toBeTruthy();
  return { clientId, leadId: ((await lead.json()) as { id: number }).id };
}

/** The newest mail in the server's file outbox addressed to `to`, decoded. */
export function lastMailTo(to: string): string | undefined {
  const dir = path.join(E2E_DATA_DIR, 'outbox');
  if (!fs.existsSync(dir)) return undefined;
  const files = fs.readdirSync(dir).filter((f) => f.includes(to)).sort();
  const f = files.at(-1);
  if (!f) return undefined;
  return decodeEml(fs.readFileSync(path.join(dir, f), 'utf8'));
}

/** A mail's text parts decoded (base64 or quoted-printable), the plain text first, then the HTML; leaf parts of a multipart mail. */
export function decodeEml(eml: string): string {
  const at = eml.search(/\r?\n\r?\n/);
  const head = eml.slice(0, at).replace(/\r?\n[ \t]+/g, ' ');
  const raw = eml.slice(at).replace(/^\r?\n\r?\n/, '');
  const type = /^Content-Type:\s*([^\n]+)/im.exec(head)?.[1] ?? 'text/plain';
  const boundary = /boundary="?([^";\s]+)"?/i.exec(type)?.[1];
  if (/^multipart\//i.test(type) && boundary) {
    const parts = raw
      .split(`--${boundary}`)
      .slice(1)
      .filter((c) => !c.startsWith('--'))
      .map((c) => ({ type: /^Content-Type:\s*([^;\s]+)/im.exec(c)?.[1]?.toLowerCase() ?? '', text: decodeEml(c.replace(/^\r?\n/, '')) }));
    const texts = parts.filter((p) => p.type === 'text/plain' || p.type.startsWith('multipart/')).concat(parts.filter((p) => p.type === 'text/html'));
    return texts.map((p) => p.text).join('\n\n');
  }
  if (!/^text\//i.test(type)) return '';
  const enc = /Content-Transfer-Encoding:\s*(\S+)/i.exec(head)?.[1]?.toLowerCase();
  if (enc === 'base64') return Buffer.from(raw.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (enc === 'quoted-printable')
    return Buffer.from(raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1').toString('utf8');
  return raw;
}

/** What an axe pass checks: WCAG 2.0, 2.1 and 2.2 A and AA, and axe's best practices. */
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];

type AxeWindow = { axe?: { run: (context: unknown, options: unknown) => Promise<AxeResults> } };

/**
 * Runs axe on the page as it is and fails on any violation, listing each rule with the elements it
 * found. Open dropdowns live in a portal at the end of the body, beside the landmarks of the control
 * that opened them: every rule checks them except "all content inside a landmark", whose findings
 * inside the portal are dropped after the pass.
 *
 * axe-core runs in the page itself, injected once per document (the CRM has no frames), and reports
 * violations only. @axe-core/playwright injected its 550 KB source afresh for every pass, collected
 * every passing node too, and opened a blank page to merge frame results: 2-2.7 s a pass against
 * 0.6-1.3 s this way, for the same rules and the same findings.
 */
/**
 * `kind: 'mail'`: a mail's HTML, which a mail program shows inside its own page: the rules that judge
 * a whole page (one main landmark, one h1, everything inside landmarks) are left to that page.
 */
const PAGE_RULES = ['landmark-one-main', 'page-has-heading-one', 'region'];
export async function expectAccessible(page: Page, label = page.url(), kind: 'page' | 'mail' = 'page') {
  // Bounded: a mail's HTML in its sandboxed frame (no scripts, about:srcdoc) may never be reported
  // idle by Playwright, and the page's "networkidle" waits for every frame (seen on a lead's enquiry
  // mail: the check waited until the test's time ran out). With such a frame on the page the wait
  // would only ever end by its timeout: the main landmark's wait below stands for it then.
  if (!(await page.locator('iframe[sandbox]').count())) await page.waitForLoadState('networkidle', { timeout: 15_000 }).catch(() => undefined);
  // Every page has its main landmark and one h1: on a loaded machine a screen's code can still be on
  // its way after the network went quiet, and axe judged the bare shell (no main, no h1). A mail has
  // neither (its page is the mail program's), and is whole once set: waiting for them only ran out
  // the 15 s, three times in agency-face.spec.ts.
  if (kind === 'page') await page.locator('main h1, [role="main"] h1').first().waitFor({ state: 'attached', timeout: 15_000 }).catch(() => undefined);
  // A menu or a dropdown still fading in has its text half transparent, and a list still growing
  // scrolls: axe judged those in-between frames (a language menu's items at 2.4:1 contrast). The
  // check waits for running transitions to end (never for endless ones, such as a loader's spin).
  await page.evaluate(async () => {
    // A transition asked for in this frame (a menu just opened) starts in the next ones: let it start first.
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    const ending = document.getAnimations().filter((a) => a.playState === 'running' && Number.isFinite(Number(a.effect?.getComputedTiming().endTime)));
    await Promise.race([Promise.all(ending.map((a) => a.finished.catch(() => undefined))), new Promise((resolve) => setTimeout(resolve, 3000))]);
  });
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  const result = await page.evaluate(
    (options) => (window as unknown as AxeWindow).axe!.run(document, options),
    {
      runOnly: { type: 'tag', values: AXE_TAGS },
      resultTypes: ['violations'],
      ...(kind === 'mail' ? { rules: Object.fromEntries(PAGE_RULES.map((r) => [r, { enabled: false }])) } : {}),
    },
  );
  const regionTargets = result.violations.filter((v) => v.id === 'region').flatMap((v) => v.nodes.map((n) => String(n.target[0])));
  const inPortal = new Set(
    await page.evaluate((sels) => sels.filter((s) => document.querySelector(s)?.closest('[data-portal]') != null), regionTargets),
  );
  const found = result.violations
    .map((v) => (v.id === 'region' ? { ...v, nodes: v.nodes.filter((n) => !inPortal.has(String(n.target[0]))) } : v))
    .filter((v) => v.nodes.length > 0)
    .map((v) => `${v.id} (${v.impact}): ${v.help}\n${v.nodes.map((n) => `    ${n.target.join(' ')} ${n.html.slice(0, 160)} ${n.failureSummary?.split('\n').slice(1, 2).join('') ?? ''}`).join('\n')}`);
  expect.soft(found, `accessibility of ${label}`).toEqual([]);
}

/** The page's badges, status chips and counts (Mantine's Badge and Indicator). */
const BADGES = ['.mantine-Badge-root', '.mantine-Indicator-indicator'];

/**
 * axe's colour contrast (4.5:1) of every badge, status chip and count on the page, and answers the
 * texts it measured. One it could not measure (text over a pseudo-element or an image: "needs
 * review") fails as one under 4.5:1 does, so that a passing check means each was measured.
 */
export async function expectBadgesReadable(page: Page, label: string): Promise<string[]> {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  await expect(page.locator(BADGES.join(', ')).first()).toBeVisible();
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  const { failing, measured } = await page.evaluate(async (selectors) => {
    const present = selectors.filter((s) => document.querySelector(s));
    const result = await (window as unknown as AxeWindow).axe!.run({ include: present.map((s) => [s]) }, { runOnly: ['color-contrast'], resultTypes: ['passes', 'violations', 'incomplete'] });
    const text = (target: unknown[]) => document.querySelector(String(target[0]))?.textContent?.trim() ?? '';
    return {
      failing: [...result.violations, ...result.incomplete].flatMap((v) => v.nodes.map((n) => `"${text(n.target)}" ${n.target.join(' ')}: ${n.any.map((c) => JSON.stringify(c.data)).join(' ')}`)),
      measured: result.passes.flatMap((v) => v.nodes.map((n) => text(n.target))),
    };
  }, BADGES);
  expect.soft(failing, `contrast of the badges on ${label}`).toEqual([]);
  return measured;
}

/**
 * No element named by aria-label or aria-labelledby that takes no name (a div, a span, a badge
 * without a role): axe says so only as "needs review" when the element has text, which the
 * accessibility check above does not fail on; here it fails.
 */
export async function expectNamesWhereAllowed(page: Page, label: string) {
  await page.waitForLoadState('networkidle').catch(() => undefined);
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  const found = await page.evaluate(async () => {
    const result = await (window as unknown as AxeWindow).axe!.run(document, { runOnly: ['aria-prohibited-attr', 'aria-allowed-attr'], resultTypes: ['violations', 'incomplete'] });
    return [...result.violations, ...result.incomplete].flatMap((v) => v.nodes.map((n) => `${v.id}: ${n.target.join(' ')} ${n.html.slice(0, 160)}`));
  });
  expect.soft(found, `names where they are allowed on ${label}`).toEqual([]);
}

/**
 * A page in `context` signed in as the administrator through the API, in an interface language
 * given by the language cookie (the admin's saved language is never touched); with its token.
 */
export async function openAs(context: BrowserContext, request: APIRequestContext, baseURL: string, language: string): Promise<{ page: Page; token: string }> {
  const res = await request.post('/api/authenticate/login', { data: { username: ADMIN.email, password: ADMIN.password } });
  expect(res.ok()).toBeTruthy();
  const session = await res.json();
  await context.addCookies([{ name: 'language', value: language, url: baseURL }]);
  await context.addInitScript((s) => window.localStorage.setItem('crm.session', s), JSON.stringify(session));
  return { page: await context.newPage(), token: session.token as string };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A property made through the API: blank from /api/object/add, then filled with `fields`. */
export async function createObject(request: APIRequestContext, token: string, fields: Record<string, unknown>): Promise<{ id: number; referenceNumber: string }> {
  const add = await request.get('/api/object/add', { headers: bearer(token) });
  expect(add.ok(), await add.text()).toBeTruthy();
  const blank = (await add.json()) as { id: number; version: number; referenceNumber: string };
  const upd = await request.post('/api/object/update', { data: { id: blank.id, version: blank.version, ...fields }, headers: bearer(token) });
  expect(upd.ok(), await upd.text()).toBeTruthy();
  return { id: blank.id, referenceNumber: blank.referenceNumber };
}

/** The id of the first place the location search finds for `name`. */
export async function placeId(request: APIRequestContext, token: string, name: string): Promise<number> {
  const res = await request.get('/api/location/search', { params: { searchStr: name }, headers: bearer(token) });
  expect(res.ok()).toBeTruthy();
  const { items } = (await res.json()) as { items: { id: number }[] };
  expect(items.length).toBeGreaterThan(0);
  return items[0]!.id;
}

export type TestLanguage = 'en-UK' | 'el';
/**
 * The language a test of a mechanism runs in (a prefetch, a lost answer, a conflict): once, not in
 * both. Every entity's flows still run in English and Greek with the axe check; what such a test
 * checks does not depend on the language, and the suite's time is CPU on two cores. The tests of
 * one mechanism alternate between the two, so each language still goes through them.
 */
export const inLanguage = (language: TestLanguage): TestLanguage[] => [language];

/**
 * A published demo property with at least three photos (the demo data publishes about half of them),
 * as the public API lists it in `lang` (its title is that language's: the English one in English).
 */
export async function publishedWithPhotos(request: APIRequestContext, lang: 'en' | 'el' | 'ru' = 'en') {
  const res = await request.get(`/api/public/listings?perPage=100&lang=${lang}`);
  expect(res.ok(), await res.text()).toBeTruthy();
  const { items } = (await res.json()) as { items: { ref: string; title: string; photos: unknown[] }[] };
  const o = items.find((i) => i.photos.length >= 3);
  if (!o) throw new Error('no published demo property with three photos');
  return { ...o, count: o.photos.length };
}

export type ShortlistLead = { id: number; objects: { objectId: number; objectReferenceNumber: string; title: string | null }[] };

/** A demo lead with at least two offered properties, the first still on the market: the n-th one found (each language its own). */
export async function shortlistDemoLead(request: APIRequestContext, token: string, n: number, language = 'en'): Promise<ShortlistLead> {
  const res = await request.post('/api/lead/search', { data: { perPage: 60, currentPage: 1 }, headers: { authorization: `Bearer ${token}` } });
  expect(res.ok(), await res.text()).toBeTruthy();
  const ids = ((await res.json()) as { items: { id: number }[] }).items.map((i) => i.id);
  let found = 0;
  for (const id of ids) {
    // The properties' titles in the language of the test's screens (an English one in English).
    const lead = (await (await request.get(`/api/lead/get/${id}`, { headers: { authorization: `Bearer ${token}`, 'accept-language': language } })).json()) as ShortlistLead;
    if (lead.objects.length >= 2 && (await onTheMarket(request, token, lead.objects[0]!.objectId)) && found++ === n) return lead;
  }
  throw new Error('no demo lead with two offered properties');
}

/** A property still to be had (active, not sold, not let): the client's page shows its answer buttons. */
export async function onTheMarket(request: APIRequestContext, token: string, objectId: number) {
  const o = (await (await request.get(`/api/object/view/${objectId}`, { headers: { authorization: `Bearer ${token}` } })).json()) as { active?: boolean; sold?: boolean; rented?: boolean };
  return o.active === true && o.sold !== true && o.rented !== true;
}

/**
 * A one-field change through the API as the single-field editor makes it: based on the version its
 * edit request answers (every change says which version it was made on; without one it is a 428).
 */
export async function patchField(request: APIRequestContext, token: string, entity: string, id: number, field: string, value: unknown) {
  const headers = { authorization: `Bearer ${token}` };
  const asked = await request.get(`/api/${entity}/editRequestSelectList?id=${id}&fieldName=${field}`, { headers });
  const version = ((await asked.json()) as { version?: number }).version;
  return request.fetch(`/api/${entity}/patch/${id}?version=${version}`, { method: 'PATCH', data: [{ op: 'replace', path: `/${field}`, value }], headers });
}
