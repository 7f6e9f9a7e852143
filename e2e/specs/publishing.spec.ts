import { expect, test, type APIRequestContext } from '@playwright/test';
import { apiToken, expectAccessible, signedIn } from '../fixtures.ts';

/**
 * A demo property published from its page: the publish request set in the single-field editor,
 * 'Publish is in progress' until the publishing answers, then the link to its public page; the
 * public page (no sign-in) with its photos, the map and the contact form, which sends an enquiry.
 */
const auth = (token: string) => ({ authorization: `Bearer ${token}` });

/** The n-th active demo property not asked to be published (one per test, so both can run at once). */
async function unpublishedDemoObject(request: APIRequestContext, token: string, n: number) {
  const list = await request.post('/api/object', { data: { perPage: 80, currentPage: 1, sortBy: 'referenceNumber', sortDir: 'asc' }, headers: auth(token) });
  expect(list.ok(), await list.text()).toBeTruthy();
  const { items } = (await list.json()) as { items: { id: number; referenceNumber: string }[] };
  let seen = 0;
  for (const row of items) {
    const edit = (await (await request.get(`/api/object/edit/${row.id}`, { headers: auth(token) })).json()) as { object: Record<string, unknown> };
    const o = edit.object;
    if (o.active === true && o.publishRequested !== true && o.published !== true && (o.images as unknown[]).length > 0 && seen++ === n) {
      return { id: row.id, ref: row.referenceNumber, title: String(o.title), titleEn: String(o.titleEn) };
    }
  }
  throw new Error('no unpublished demo property left');
}


for (const [n, language] of (['en-UK', 'el'] as const).entries()) {
  test(`publish a demo property and open its public page (${language})`, async ({ browser, request, baseURL }) => {
    test.setTimeout(90_000);
    const token = await apiToken(request);
    const o = await unpublishedDemoObject(request, token, n);

    const ctx = await signedIn(browser, baseURL!, token, language);
    const page = await ctx.newPage();
    await page.goto(`/Objects/View/${o.id}`);
    await page.getByTestId('editable-publishRequested-edit').click();
    // By the keyboard: a click can land while the dialog is still moving in (its opening transition).
    const toggle = page.getByTestId('field-editor').getByTestId('field-input');
    await toggle.press('Space');
    await expect(toggle).toBeChecked();
    await page.getByTestId('field-editor-save').click();
    // The demo property has no mandate in force: the agent is asked, and publishes it anyway.
    await page.getByRole('dialog').getByRole('button', { name: language === 'el' ? 'Δημοσίευση παρ’ όλα αυτά' : 'Publish anyway' }).click();
    await expect(page.getByTestId('field-editor')).toHaveCount(0);
    // In progress (as long as the publishing takes), then the link to the public page.
    const link = page.getByTestId('public-page-link');
    await expect(link).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId('publish-error')).toHaveCount(0);
    await expect(page.getByTestId('mark-published')).toBeVisible();
    await expectAccessible(page, 'object view, published');
    const href = (await link.getAttribute('href'))!;
    expect(href).toBe(`/listings/${o.ref}?lang=${language === 'el' ? 'el' : 'en'}`);

    // The public page, as a visitor sees it: no sign-in, on a phone.
    const visitor = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const pub = await visitor.newPage();
    await pub.goto(href);
    await expect(pub.locator('html')).toHaveAttribute('lang', language === 'el' ? 'el' : 'en');
    const article = pub.getByTestId('public-object');
    // Its title in the page's language: the English one in English (the demo has both).
    await expect(article.getByRole('heading', { level: 1 })).toHaveText(language === 'el' ? o.title : o.titleEn);
    await expect(article.locator('.gallery img').first()).toBeVisible();
    // Photos keep their 4:3 shape on a phone (not a strip as tall as the screen).
    const photo = (await article.locator('.gallery img').first().boundingBox())!;
    expect(Math.abs(photo.height - (photo.width * 3) / 4)).toBeLessThan(2);
    await expect(pub.getByTestId('public-map')).toBeVisible();
    await expect(pub.locator('figcaption.credit')).not.toContainText('© ©');
    expect(await pub.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectAccessible(pub, 'public object page');

    // It is on the public list too, and nothing the page asks for is missing.
    const missing: string[] = [];
    pub.on('response', (r) => {
      if (r.status() >= 400) missing.push(`${r.status()} ${new URL(r.url()).pathname}`);
    });
    await pub.goto(`/listings?lang=${language === 'el' ? 'el' : 'en'}&sort=new`);
    await expect(pub.locator(`[data-ref="${o.ref}"]`)).toBeVisible();
    await pub.waitForLoadState('networkidle');
    expect(missing).toEqual([]);
    await expectAccessible(pub, 'public list');

    // An enquiry from its page.
    await pub.goto(href);
    await pub.getByLabel(language === 'el' ? 'Ονοματεπώνυμο' : 'Your name').fill('Maria Visitor');
    // A bad e-mail: the answer opens at the form, with what went wrong in view.
    await pub.getByLabel(language === 'el' ? 'Διεύθυνση e-mail' : 'E-mail').fill('visitor-at-example.com');
    await pub.getByRole('button', { name: language === 'el' ? 'Αποστολή' : 'Send' }).click();
    await expect(pub.getByTestId('contact-problem')).toBeInViewport();
    await expect(pub.locator('#c-email')).toHaveAttribute('aria-invalid', 'true');
    await pub.getByLabel(language === 'el' ? 'Διεύθυνση e-mail' : 'E-mail').fill(`visitor-${Date.now()}@example.com`);
    await pub.getByRole('button', { name: language === 'el' ? 'Αποστολή' : 'Send' }).click();
    await expect(pub.getByTestId('contact-sent')).toBeVisible();
    await visitor.close();
    await ctx.close();
  });
}
