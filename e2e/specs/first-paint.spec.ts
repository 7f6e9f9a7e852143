import { expect, test, type BrowserContext } from '@playwright/test';
import { ADMIN, apiToken, expectAccessible } from '../fixtures.ts';

/**
 * A signed-in screen opened by its address arrives drawn by the server, with its data, before any of
 * the app's script has run; the app then takes that drawing over (React hydrates it: the elements
 * on screen stay the same ones) and the screen is live. Signed out, nothing is drawn.
 */
const TEXTS = {
  'en-UK': { owners: 'Owners', edit: 'Edit' },
  el: { owners: 'Ιδιοκτήτες', edit: 'Επεξεργασία' },
} as const;

async function signInThroughThePage(context: BrowserContext, language: string) {
  // No language chosen on the sign-in page: one chosen there would be saved as the administrator's,
  // which the other specs' sign-ins (in parallel) would then get.
  const page = await context.newPage();
  await page.goto('/login');
  await page.getByTestId('login-email').fill(ADMIN.email);
  await page.getByTestId('login-password').fill(ADMIN.password);
  await page.getByTestId('login-submit').click();
  await expect(page).toHaveURL(/\/CRM$/);
  // Signing in applies the user's saved language; the reader then chooses this one (in this browser only).
  await context.addCookies([{ name: 'language', value: language, url: test.info().project.use.baseURL! }]);
  return page;
}

for (const language of ['en-UK', 'el'] as const) {
  test(`a screen opened by its address arrives drawn with its data and is taken over live (${language})`, async ({ browser, request }) => {
    const L = TEXTS[language];
    const token = await apiToken(request);
    const mark = `Drawn${Date.now().toString(36).replace(/\d/g, (d) => 'qwxyzjkvbh'[Number(d)]!)}`;
    const account = (await (await request.post('/api/account/add', { data: { lastName: mark, firstName: 'Eleni', isOwner: true }, headers: { authorization: `Bearer ${token}` } })).json()) as { id: number };

    const context = await browser.newContext({ viewport: { width: 412, height: 860 }, isMobile: true, hasTouch: true });
    const page = await signInThroughThePage(context, language);

    // Without any script: the server's drawing is the screen, in the reader's language, with the data.
    const still = await browser.newContext({ javaScriptEnabled: false, storageState: await context.storageState() });
    const plain = await still.newPage();
    const answer = await plain.goto('/Owners');
    expect(answer!.headers()['cache-control']).toBe('no-store');
    await expect(plain.getByRole('heading', { level: 1, name: L.owners })).toBeVisible();
    await expect(plain.getByText(mark)).toBeVisible();
    await expect(plain.locator('html')).toHaveAttribute('lang', language === 'el' ? 'el' : 'en');
    await plain.goto(`/Accounts/View/${account.id}`);
    await expect(plain.getByTestId('account-name')).toContainText(mark);
    await still.close();

    // With the script: the drawn elements are the live ones (hydrated, not drawn again), and they answer.
    const warnings: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'warning' || m.type() === 'error') warnings.push(m.text());
    });
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    await page.route(/\/assets\/index-[\w-]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`/Accounts/View/${account.id}`, { waitUntil: 'domcontentloaded' });
    await expect(page.locator('html')).toHaveAttribute('data-drawn', '');
    await expect(page.getByTestId('account-name')).toContainText(mark);
    await page.getByTestId('account-name').evaluate((el) => ((el as HTMLElement & { drawnMark?: boolean }).drawnMark = true));
    release();
    await expect(page.locator('html')).not.toHaveAttribute('data-drawn');
    await expect(page.locator('#root')).not.toHaveAttribute('inert');
    expect(await page.getByTestId('account-name').evaluate((el) => (el as HTMLElement & { drawnMark?: boolean }).drawnMark)).toBe(true);
    await page.unroute(/\/assets\/index-[\w-]+\.js$/);
    await page.getByRole('button', { name: L.edit, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/Accounts/View/${account.id}/1$`));
    await expectAccessible(page);
    expect(warnings.filter((w) => /drawn again|hydrat/i.test(w))).toEqual([]);

    // Signed out: the page cookie is gone with the session, and a screen is no longer drawn.
    await page.request.post('/api/authenticate/logout', { headers: { authorization: `Bearer ${(await page.evaluate(() => JSON.parse(localStorage.getItem('crm.session')!).token)) as string}` } });
    const after = await page.request.get('/Owners', { headers: { accept: 'text/html' } });
    expect(await after.text()).toContain('<div id="root"><div class="crm-loading" role="status">');
    expect((await context.cookies()).some((c) => c.name === 'crm_page')).toBe(false);
    // A made-up page cookie, with the app's mark: looked up, found to be nobody's, not drawn.
    await context.addCookies([
      { name: 'crm_page', value: 'x'.repeat(43), url: test.info().project.use.baseURL! },
      { name: 'crm_signed_in', value: '1', url: test.info().project.use.baseURL! },
    ]);
    const forged = await page.request.get('/Owners', { headers: { accept: 'text/html' } });
    expect(await forged.text()).toContain('<div id="root"><div class="crm-loading" role="status">');
    await context.close();
  });
}

test('a list opened from the menu shows the first page its route asked for while its code loaded: its call goes out once, before the code is here', async ({ browser }) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await signInThroughThePage(context, 'en-UK');
  for (const [menu, list, call] of [
    ['menu-nav.deals', 'deals', '/api/Deal/search'],
    ['menu-nav.viewings', 'viewings', '/api/Viewing/search'],
    ['menu-nav.reservations', 'reservations', '/api/Reservation/search'],
  ] as const) {
    const events: string[] = [];
    const ask = (r: { url: () => string }) => void (new URL(r.url()).pathname.toLowerCase() === call.toLowerCase() && events.push('ask'));
    const code = (r: { url: () => string }) => void (new RegExp(`/${list}-page-[\\w-]+\\.js$`).test(new URL(r.url()).pathname) && events.push('code'));
    page.on('request', ask);
    page.on('requestfinished', code);
    await page.getByTestId(menu).click();
    // The count is the screen's own answer: were its key not the loader's, its own call would have gone out and come back by now.
    await expect(page.getByTestId(`${list}-count`)).toHaveText(/^\d+$/);
    // Asked once, by the route, before the screen's code had arrived (without the route's loader the
    // screen would ask once too, but only after its code).
    expect(events, list).toEqual(['ask', 'code']);
    page.off('request', ask);
    page.off('requestfinished', code);
  }
  await context.close();
});

for (const language of ['en-UK', 'el'] as const) {
  test(`a menu opened the moment a drawn screen is live opens beside its button, not in a corner (${language})`, async ({ browser, request }) => {
    const token = await apiToken(request);
    const account = (await (await request.post('/api/account/add', { data: { lastName: 'Menuopen', firstName: 'Eleni', isOwner: true }, headers: { authorization: `Bearer ${token}` } })).json()) as { id: number };
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await signInThroughThePage(context, language);
    // In the task right after the drawing is taken over (data-drawn gone), the record's menu is
    // clicked, and where the menu first shows is noted.
    await page.addInitScript(() => {
      const w = window as unknown as { firstMenu?: { menuTop: number; menuLeft: number; buttonBottom: number } };
      let fired = false;
      new MutationObserver(() => {
        if (fired || document.documentElement.hasAttribute('data-drawn')) return;
        fired = true;
        setTimeout(() => {
          const button = document.querySelector<HTMLElement>('[data-testid="account-menu"]');
          if (!button) return;
          button.click();
          const sample = () => {
            const menu = document.querySelector('[role="menu"]');
            if (!menu) return void requestAnimationFrame(sample);
            const m = menu.getBoundingClientRect();
            w.firstMenu = { menuTop: m.top, menuLeft: m.left, buttonBottom: button.getBoundingClientRect().bottom };
          };
          requestAnimationFrame(sample);
        }, 0);
      }).observe(document, { attributes: true, subtree: true, attributeFilter: ['data-drawn'] });
    });
    // A phone's slower processor (as Lighthouse's mobile preset): the take-over's steps take longer.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    await page.goto(`/Accounts/View/${account.id}`);
    await expect(page.locator('html')).not.toHaveAttribute('data-drawn');
    await expect.poll(() => page.evaluate(() => (window as unknown as { firstMenu?: unknown }).firstMenu ?? null), { timeout: 30_000 }).not.toBeNull();
    const first = (await page.evaluate(() => (window as unknown as { firstMenu: { menuTop: number; menuLeft: number; buttonBottom: number } }).firstMenu))!;
    // Below its button from its first frame (a menu whose button was not known yet drew at 0, 0).
    expect(first.menuLeft).toBeGreaterThan(0);
    expect(first.menuTop).toBeGreaterThanOrEqual(first.buttonBottom - 2);
    expect(first.menuTop).toBeLessThan(first.buttonBottom + 40);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    await context.close();
  });
}
