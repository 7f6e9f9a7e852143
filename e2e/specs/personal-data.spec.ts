import { expect, test, type APIRequestContext } from '@playwright/test';
import { apiToken, expectAccessible, signedIn } from '../fixtures.ts';
import { closeMenuWithEscape } from '../pages/menu.ts';
import { downloadWorkbook } from '../pages/list.ts';

/**
 * A person's data (GDPR, decision 051): an office admin downloads everything held about one
 * person, and erases another's, from the account's menu, in English and in Greek.
 */
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
async function createAccount(request: APIRequestContext, token: string, fields: Record<string, unknown>) {
  const res = await request.post('/api/account/add', { data: fields, headers: auth(token) });
  expect(res.ok(), await res.text()).toBeTruthy();
  return ((await res.json()) as { id: number }).id;
}

const TEXTS = {
  'en-UK': { download: 'Personal data', erase: 'Erase personal data', sheet: 'Person', badge: 'Data erased', erased: 'Erased person', done: 'The personal data was erased.', phoneSheet: 'Phones and e-mails' },
  el: { download: 'Προσωπικά δεδομένα', erase: 'Διαγραφή προσωπικών δεδομένων', sheet: 'Πρόσωπο', badge: 'Δεδομένα διαγραμμένα', erased: 'Διαγραμμένο πρόσωπο', done: 'Τα προσωπικά δεδομένα διαγράφηκαν.', phoneSheet: 'Τηλέφωνα και e-mail' },
} as const;

for (const language of ['en-UK', 'el'] as const) {
  test(`an office admin downloads one person's data and erases another's (${language})`, async ({ browser, request, baseURL }) => {
    const tx = TEXTS[language];
    const mark = `${Date.now() % 1000000}${language === 'el' ? 'el' : 'en'}`;
    const token = await apiToken(request);
    const asked = await createAccount(request, token, { firstName: 'Danae', lastName: `Copyasked${mark}`, isClient: true, email: `danae.${mark}@example.gr`, phone: '+30 697 000 1122' });
    const leaving = await createAccount(request, token, { firstName: 'Eris', lastName: `Forgetme${mark}`, isClient: true, email: `eris.${mark}@example.gr`, phone: '+30 697 000 3344' });
    const ctx = await signedIn(browser, baseURL!, token, language, { acceptDownloads: true });
    const page = await ctx.newPage();

    // The copy: one workbook, a sheet per kind, in the reader's language, with the person's values.
    await page.goto(`/Accounts/View/${asked}`);
    await expect(page.getByTestId('account-name')).toHaveText(`Copyasked${mark} Danae`);
    await page.getByTestId('account-menu').click();
    await expect(page.getByTestId('personal-data-download')).toHaveText(tx.download);
    await expectAccessible(page, 'account menu');
    const wb = await downloadWorkbook(page, page.getByTestId('personal-data-download'), `Personal-data-${asked}.xlsx`);
    expect(wb.worksheets[0]!.name).toBe(tx.sheet);
    const contacts = wb.getWorksheet(tx.phoneSheet)!;
    const values: string[] = [];
    contacts.eachRow((row) => row.eachCell((c) => values.push(String(c.value))));
    expect(values).toEqual(expect.arrayContaining([`danae.${mark}@example.gr`, '+30 697 000 1122']));
    expect(values.join(' ')).not.toContain('Forgetme');

    // The erasure: what will happen said, the name typed out before the red button works.
    await page.goto(`/Accounts/View/${leaving}`);
    await expect(page.getByTestId('account-name')).toHaveText(`Forgetme${mark} Eris`);
    await page.getByTestId('account-menu').click();
    await page.getByTestId('personal-data-erase').click();
    const dialog = page.getByRole('dialog', { name: tx.erase });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText(`#${leaving}`);
    await expect(page.getByTestId('erase-confirm')).toBeDisabled();
    await page.getByTestId('erase-name').fill('Eris');
    await expect(page.getByTestId('erase-confirm')).toBeDisabled();
    await expectAccessible(page, 'erase dialog');
    await page.getByTestId('erase-name').fill(`forgetme${mark}  eris`);
    await page.getByTestId('erase-confirm').click();
    await expect(page.getByText(tx.done)).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(page.getByTestId('account-name')).toHaveText(`${tx.erased} #${leaving}`);
    await expect(page.getByTestId('erased-badge')).toHaveText(tx.badge);
    // Only read from now on: no Edit, no second erasure; the copy of what is left still there.
    await expect(page.getByTestId('edit-toggle')).toHaveCount(0);
    await page.getByTestId('account-menu').click();
    await expect(page.getByTestId('personal-data-erase')).toHaveCount(0);
    await expect(page.getByTestId('personal-data-download')).toBeVisible();
    await closeMenuWithEscape(page);
    await expectAccessible(page, 'erased account');
    const stored = await request.get(`/api/account/view/${leaving}`, { headers: auth(token) });
    expect(await stored.json()).toMatchObject({ displayName: `#${leaving}`, email: null, phone: null });
    await ctx.close();
  });
}
