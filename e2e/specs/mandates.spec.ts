import { expect, test, type APIRequestContext } from '@playwright/test';
import { apiToken, createObject, expectAccessible, signedIn } from '../fixtures.ts';

/** A property's mandate (εντολή ανάθεσης): the law's limit said at the date, the mandate beside the publish switch, publishing without one asked about, the list of mandates ending soon. */
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const unique = (s: string) => `${s}${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;

/** The agency's day (Europe/Athens) moved by some days and months, as YYYY-MM-DD and as typed (DD/MM/YYYY). */
function day(days = 0, months = 0) {
  const [y, m, d] = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Athens' }).format(new Date()).split('-').map(Number) as [number, number, number];
  const at = new Date(Date.UTC(y, m - 1 + months, d + days));
  const iso = at.toISOString().slice(0, 10);
  return { iso, typed: `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}` };
}

async function ownedProperty(request: APIRequestContext, token: string, lastName: string) {
  const object = await createObject(request, token, { area: 82 });
  const owner = await request.post('/api/account/add', { data: { lastName, firstName: 'Ελένη', isOwner: true, middleName: 'Νικόλαος', taxNumber: '090000045' }, headers: auth(token) });
  expect(owner.ok(), await owner.text()).toBeTruthy();
  const ownerId = (await owner.json()).id as number;
  const link = await request.post('/api/objectAccount/add', { data: { objectId: object.id, accountId: ownerId, relation: 1 }, headers: auth(token) });
  expect(link.ok(), await link.text()).toBeTruthy();
  return { ...object, ownerId };
}

const TEXTS = {
  'en-UK': {
    none: 'No mandate',
    tooLong: /An exclusive mandate lasts at most 8 months \(law 4072\/2012\)/,
    inForce: (date: string) => `Exclusive mandate until ${date}`,
    noMandateTitle: 'No mandate in force',
    ending: 'Mandates ending soon',
  },
  el: {
    none: 'Χωρίς εντολή ανάθεσης',
    tooLong: /Η αποκλειστική εντολή διαρκεί το πολύ 8 μήνες \(ν\. 4072\/2012\)/,
    inForce: (date: string) => `Αποκλειστική εντολή έως ${date}`,
    noMandateTitle: 'Χωρίς εντολή ανάθεσης σε ισχύ',
    ending: 'Εντολές που λήγουν',
  },
} as const;

for (const language of ['en-UK', 'el'] as const) {
  const say = TEXTS[language];

  test(`adds an exclusive mandate and sees it beside the publish switch (${language})`, async ({ browser, request, baseURL }) => {
    test.setTimeout(120_000);
    const token = await apiToken(request);
    const lastName = unique('Εντολέας');
    const property = await ownedProperty(request, token, lastName);
    const ctx = await signedIn(browser, baseURL!, token, language, { viewport: { width: 1280, height: 800 } });
    const page = await ctx.newPage();
    await page.goto(`/Objects/View/${property.id}`);
    const publishing = page.getByTestId('publish-and-mandate');
    await expect(publishing.getByTestId('mandate-none')).toHaveText(say.none);

    // Add: the property's owner is there already, with what their record holds.
    await page.getByTestId('object-mandates').getByTestId('mandate-add').click();
    const form = page.getByTestId('mandate-form');
    await expect(form.getByTestId('mandate-owner')).toContainText(lastName);
    await form.getByTestId('mandate-owner-taxoffice').fill('Δ΄ Θεσσαλονίκης');
    await form.getByTestId('mandate-start').fill(day().typed);
    await form.getByTestId('mandate-start').press('Tab');
    // Nine months is more than the law allows an exclusive mandate: said under the end date, nothing stored.
    await form.getByTestId('mandate-end').fill(day(0, 9).typed);
    await form.getByTestId('mandate-end').press('Tab');
    await form.getByTestId('mandate-exception-add').click();
    await form.getByTestId('mandate-exception-name').fill('Γεώργιος Αλεξίου');
    await form.getByTestId('mandate-save').click();
    await expect(form.getByText(say.tooLong)).toBeVisible();
    await expectAccessible(page, `mandate form with the law's refusal ${language}`);
    const none = await request.get('/api/Mandate', { params: { objectId: property.id }, headers: auth(token) });
    expect((await none.json()).items).toEqual([]);

    const end = day(0, 6);
    await form.getByTestId('mandate-end').fill(end.typed);
    await form.getByTestId('mandate-end').press('Tab');
    await form.getByTestId('mandate-save').click();
    await expect(form).toHaveCount(0);
    await expect(publishing.getByTestId('mandate-in-force-badge')).toHaveText(say.inForce(end.typed));
    const card = page.getByTestId('object-mandates');
    await expect(card.getByTestId('mandate')).toContainText('Γεώργιος Αλεξίου');
    await expect(card.getByTestId('mandate')).toContainText(lastName);
    const saved = (await (await request.get('/api/Mandate', { params: { objectId: property.id }, headers: auth(token) })).json()).items;
    expect(saved).toMatchObject([{ kind: 'exclusive', endDate: end.iso, exceptions: [{ name: 'Γεώργιος Αλεξίου' }], owners: [{ accountId: property.ownerId, taxOffice: 'Δ΄ Θεσσαλονίκης', fatherName: 'Νικόλαος' }] }]);
    await expectAccessible(page, `property with its mandate ${language}`);
    await ctx.close();
  });

  test(`asks before publishing without a mandate, and lists mandates ending soon on a phone (${language})`, async ({ browser, request, baseURL }) => {
    test.setTimeout(120_000);
    const token = await apiToken(request);
    const bare = await ownedProperty(request, token, unique('Χωρίςεντολή'));
    const ending = await ownedProperty(request, token, unique('Λήγει'));
    const made = await request.post('/api/Mandate/update', {
      data: { objectId: ending.id, kind: 'exclusive', startDate: day(-60).iso, endDate: day(12).iso, owners: [{ accountId: ending.ownerId }] },
      headers: auth(token),
    });
    expect(made.ok(), await made.text()).toBeTruthy();
    const ctx = await signedIn(browser, baseURL!, token, language, { viewport: { width: 390, height: 844 }, isMobile: true });
    const page = await ctx.newPage();
    await page.goto(`/Objects/View/${bare.id}`);
    await expect(page.getByTestId('mandate-none')).toBeVisible();
    await page.getByTestId('editable-publishRequested-edit').click();
    await page.getByTestId('field-editor').getByRole('switch').check();
    await page.getByTestId('field-editor-save').click();
    const ask = page.getByRole('dialog', { name: say.noMandateTitle });
    await expect(ask).toBeVisible();
    await expectAccessible(page, `publish without a mandate ${language}`);
    const cancel = language === 'el' ? 'Ακύρωση' : 'Cancel';
    await ask.getByRole('button', { name: cancel }).click();
    await expect(ask).toHaveCount(0);
    // The switch's dialog is still open, as it was: its own Cancel leaves the property unpublished.
    await page.getByTestId('field-editor').getByRole('button', { name: cancel }).click();
    await expect(page.getByTestId('field-editor')).toHaveCount(0);
    expect((await (await request.get(`/api/object/view/${bare.id}`, { headers: auth(token) })).json()).publishRequested).toBe(false);

    // One click from home: the list of mandates ending within 30 days.
    await page.goto('/CRM');
    await page.getByRole('link', { name: say.ending }).click();
    const row = page.getByTestId('mandate-ending').filter({ hasText: `#${ending.referenceNumber}` });
    await expect(row).toContainText('12');
    await expectAccessible(page, `mandates ending soon on a phone ${language}`);
    await row.getByRole('link').click();
    await expect(page).toHaveURL(new RegExp(`/Objects/View/${ending.id}$`));
    await ctx.close();
  });
}
