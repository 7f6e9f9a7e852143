import fs from 'node:fs';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { apiToken, openAs, signedIn } from '../fixtures.ts';

/**
 * Files on a record: attach (hidden file input), list, open (download or a new tab, with the
 * sign-in's token), delete with the confirmation, and the red alert for a refused file — in
 * English and in Greek. The admin signs in through the API and the language comes from the
 * cookie, so the admin's saved language is never touched.
 */
const LANGUAGES = [
  {
    cookie: 'en-UK',
    title: 'Files',
    empty: 'No files attached yet.',
    deleteTitle: 'Delete file?',
    deleteLabel: (name: string) => `Delete ${name}`,
    refused: (name: string) => `The file “${name}” was not uploaded: files of this type are not accepted.`,
  },
  {
    cookie: 'el',
    title: 'Αρχεία',
    empty: 'Δεν υπάρχουν ακόμη συνημμένα αρχεία.',
    deleteTitle: 'Να διαγραφεί το αρχείο;',
    deleteLabel: (name: string) => `Διαγραφή «${name}»`,
    refused: (name: string) => `Το αρχείο «${name}» δεν ανέβηκε: αρχεία αυτού του τύπου δεν γίνονται δεκτά.`,
  },
] as const;

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const NOTES = 'Viewing on Saturday at 11:00\nΕπίσκεψη το Σάββατο στις 11:00\n';
const EXE = Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00', 'latin1'), Buffer.alloc(200, 1)]);

let seq = 0;
const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${(seq++).toString(36)}`.replace(/\d/g, (d) => 'qwxyzjkvbh'[Number(d)]!);
const auth = (token: string) => ({ authorization: `Bearer ${token}` });


async function createAccount(request: APIRequestContext, token: string): Promise<number> {
  const res = await request.post('/api/account/add', { data: { firstName: 'Files', lastName: unique('Fileowner') }, headers: auth(token) });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()).id as number;
}

/** The password of the staff members the sign-in tests make. */
const READER_PASSWORD = 'file-reader-12';

/** A staff member of their own, who signs in through the page (which saves a language to the account): their e-mail. */
async function newReader(request: APIRequestContext, admin: string, firstName: string, prefix: string): Promise<string> {
  const email = `${unique(prefix)}@example.com`;
  const add = await request.post('/api/account/add', { headers: auth(admin), data: { lastName: unique('Reader'), firstName, isEmploye: true, role: 'employee', email } });
  expect(add.ok(), await add.text()).toBeTruthy();
  const pw = await request.post('/api/authenticate/setPassword', { headers: auth(admin), data: { email, password: READER_PASSWORD } });
  expect(pw.ok(), await pw.text()).toBeTruthy();
  return email;
}

/** A PNG uploaded and attached to a new account: its address by its own name. */
async function attachedPng(request: APIRequestContext, admin: string, name: string): Promise<string> {
  const id = await createAccount(request, admin);
  const up = await request.post('/api/files', { headers: auth(admin), multipart: { files: { name, mimeType: 'image/png', buffer: PNG } } });
  expect(up.status(), await up.text()).toBe(200);
  const [file] = await up.json();
  expect((await request.post('/api/files/setParent', { headers: auth(admin), data: { entityType: 2, id, fileNames: [file.systemName] } })).ok()).toBeTruthy();
  return `/api/files/${file.systemName}/${encodeURIComponent(name)}`;
}

async function storedNames(request: APIRequestContext, token: string, id: number): Promise<string[]> {
  const res = await request.get(`/api/files?parentType=2&parentId=${id}`, { headers: auth(token) });
  expect(res.ok()).toBeTruthy();
  return ((await res.json()).items as { userName: string }[]).map((f) => f.userName);
}

for (const L of LANGUAGES) {
  test.describe(`files on an account (${L.cookie})`, () => {
    test('attach two files, open each, delete one after confirming', async ({ context, request, baseURL }) => {
      const { page, token } = await openAs(context, request, baseURL!, L.cookie);
      const id = await createAccount(request, token);
      await page.goto(`/Accounts/View/${id}/1`);
      const files = page.getByTestId('record-files');
      await expect(files.getByText(L.title, { exact: true })).toBeVisible();
      await expect(files.getByTestId('files-empty')).toHaveText(L.empty);

      await files.getByTestId('file-input').setInputFiles([
        { name: 'Σημειώσεις επίσκεψης.txt', mimeType: 'text/plain', buffer: Buffer.from(NOTES) },
        { name: 'floor-plan.png', mimeType: 'image/png', buffer: PNG },
      ]);
      await expect(files.getByTestId('file-link')).toHaveText(['Σημειώσεις επίσκεψης.txt', 'floor-plan.png']);
      await expect(files.getByTestId('files-count')).toHaveText('2');
      expect(await storedNames(request, token, id)).toEqual(['Σημειώσεις επίσκεψης.txt', 'floor-plan.png']);

      // A text file downloads under the user's name, with its content.
      const [download] = await Promise.all([page.waitForEvent('download'), files.getByTestId('file-link').filter({ hasText: 'Σημειώσεις' }).click()]);
      expect(download.suggestedFilename()).toBe('Σημειώσεις επίσκεψης.txt');
      expect(fs.readFileSync((await download.path())!, 'utf8')).toBe(NOTES);

      // A picture opens in a new tab at its own address, its name the last part (not a blob: copy):
      // the tab is titled by the name and "Save as" offers it; the session's file cookie opens it.
      const [popup] = await Promise.all([page.waitForEvent('popup'), files.getByTestId('file-link').filter({ hasText: 'floor-plan.png' }).click()]);
      await expect(popup).toHaveURL(/\/api\/files\/[^/]+\/floor-plan\.png$/);
      await expect(popup).toHaveTitle(/^floor-plan\.png/);
      await expect.poll(() => popup.evaluate(() => document.querySelector('img')?.naturalWidth ?? 0)).toBe(1);
      await popup.close();

      // Delete asks first; cancelling keeps the file.
      const row = files.getByTestId('file-link-row').filter({ hasText: 'floor-plan.png' });
      await expect(row.getByTestId('file-delete')).toHaveAccessibleName(L.deleteLabel('floor-plan.png'));
      await row.getByTestId('file-delete').click();
      const dialog = page.getByRole('dialog');
      await expect(dialog).toContainText(L.deleteTitle);
      await expect(dialog).toContainText('floor-plan.png');
      await page.getByTestId('file-delete-cancel').click();
      await expect(dialog).toBeHidden();
      await expect(files.getByTestId('file-link')).toHaveCount(2);

      // A double click on Delete deletes once: one request, no "not found" from a second one.
      const deletes: string[] = [];
      page.on('request', (r) => {
        if (r.method() === 'DELETE' && r.url().includes('/api/files/')) deletes.push(r.url());
      });
      await row.getByTestId('file-delete').click();
      await page.getByTestId('file-delete-confirm').dblclick();
      await expect(files.getByTestId('file-link')).toHaveText(['Σημειώσεις επίσκεψης.txt']);
      await expect(dialog).toBeHidden();
      expect(deletes).toHaveLength(1);
      await expect(files.getByTestId('files-error')).toHaveCount(0);
      expect(await storedNames(request, token, id)).toEqual(['Σημειώσεις επίσκεψης.txt']);
    });

    test('a refused file shows the server\'s message in a red alert above the file links', async ({ context, request, baseURL }) => {
      const { page, token } = await openAs(context, request, baseURL!, L.cookie);
      const id = await createAccount(request, token);
      await page.goto(`/Accounts/View/${id}/1`);
      const files = page.getByTestId('record-files');
      await files.getByTestId('file-input').setInputFiles({ name: 'contract.txt', mimeType: 'text/plain', buffer: Buffer.from('Contract draft') });
      await expect(files.getByTestId('file-link')).toHaveText(['contract.txt']);

      // An executable renamed to .pdf is refused by its content.
      await files.getByTestId('file-input').setInputFiles({ name: 'invoice.pdf', mimeType: 'application/pdf', buffer: EXE });
      const alert = files.getByTestId('files-error');
      await expect(alert).toHaveText(L.refused('invoice.pdf'));
      const alertBox = (await alert.boundingBox())!;
      const linksBox = (await files.getByTestId('file-links').boundingBox())!;
      expect(alertBox.y + alertBox.height).toBeLessThanOrEqual(linksBox.y);
      await expect(files.getByTestId('file-link')).toHaveText(['contract.txt']);
      expect(await storedNames(request, token, id)).toEqual(['contract.txt']);
    });

    test('in view mode the files are listed without upload or delete', async ({ context, request, baseURL }) => {
      const { page, token } = await openAs(context, request, baseURL!, L.cookie);
      const id = await createAccount(request, token);
      const up = await request.post('/api/files', {
        headers: auth(token),
        multipart: { files: { name: 'keys-receipt.png', mimeType: 'image/png', buffer: PNG } },
      });
      expect(up.status(), await up.text()).toBe(200);
      const [file] = await up.json();
      const attach = await request.post('/api/files/setParent', { headers: auth(token), data: { entityType: 2, id, fileNames: [file.systemName] } });
      expect(attach.ok()).toBeTruthy();

      await page.goto(`/Accounts/View/${id}/0`);
      const files = page.getByTestId('record-files');
      await expect(files.getByTestId('file-link')).toHaveText(['keys-receipt.png']);
      await expect(files.getByTestId('file-input')).toHaveCount(0);
      await expect(files.getByTestId('file-delete')).toHaveCount(0);
    });
  });
}

test.describe('a file\'s link opened signed out', () => {
  test('the page leads to the sign-in, and signing in opens the file', async ({ browser, request, baseURL }) => {
    const admin = await apiToken(request);
    const email = await newReader(request, admin, 'Eleni', 'filereader');
    const link = `${await attachedPng(request, admin, 'floor plan.png')}?size=original`;

    const context = await browser.newContext();
    await context.addCookies([{ name: 'language', value: 'el', url: baseURL! }]);
    const page = await context.newPage();
    const out = await page.goto(link);
    expect(out!.status()).toBe(401);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Συνδεθείτε για να ανοίξετε το αρχείο');
    await page.getByRole('link', { name: 'Σύνδεση' }).click();
    await expect(page).toHaveURL(`${baseURL}/login?returnUrl=${encodeURIComponent(link)}`);

    await page.getByTestId('login-email').fill(email);
    await page.getByTestId('login-password').fill(READER_PASSWORD);
    const served = page.waitForResponse((r) => r.request().isNavigationRequest() && new URL(r.url()).pathname.startsWith('/api/files/'));
    await page.getByTestId('login-submit').click();
    const res = await served;
    expect(res.status()).toBe(200);
    expect(res.headers()['content-type']).toBe('image/png');
    expect((await res.body()).equals(PNG)).toBe(true);
    await expect(page).toHaveURL(`${baseURL}${link}`);
    await context.close();
  });

  test('a browser that keeps its session but not the file cookie (restarted, or the link followed from a mail) opens the file from the page without asking for the password', async ({ browser, request, baseURL }) => {
    const admin = await apiToken(request);
    const link = await attachedPng(request, admin, 'plan.png');

    // The session is in the browser's storage; the file cookie (a cookie of the browser's session) is not.
    const context = await signedIn(browser, baseURL!, admin, 'en-UK');
    const page = await context.newPage();
    expect((await page.goto(link))!.status()).toBe(401);
    const served = page.waitForResponse((r) => r.request().isNavigationRequest() && new URL(r.url()).pathname === link, { timeout: 20_000 });
    await page.getByRole('link', { name: 'Sign in' }).click();
    const res = await served;
    expect(res.status()).toBe(200);
    expect((await res.body()).equals(PNG)).toBe(true);
    await expect(page).toHaveURL(`${baseURL}${link}`);
    await context.close();
  });

  test('a session the browser still keeps but the server has ended: the sign-in asks for the password, keeps the way back, and opens the file', async ({ browser, request, baseURL }) => {
    const admin = await apiToken(request);
    const email = await newReader(request, admin, 'Maria', 'endedreader');
    const link = await attachedPng(request, admin, 'plan.png');

    // The admin's session that this browser keeps, ended on the server (signed out elsewhere).
    const ended = await apiToken(request);
    expect((await request.post('/api/authenticate/logout', { headers: auth(ended) })).ok()).toBeTruthy();
    const context = await signedIn(browser, baseURL!, ended, 'en-UK');
    const page = await context.newPage();
    expect((await page.goto(link))!.status()).toBe(401);
    await page.getByRole('link', { name: 'Sign in' }).click();
    await expect(page.getByTestId('login-email')).toBeVisible();
    await expect(page).toHaveURL(`${baseURL}/login?returnUrl=${encodeURIComponent(link)}`);
    await expect(page.getByTestId('login-return-note')).toBeVisible();

    await page.getByTestId('login-email').fill(email);
    await page.getByTestId('login-password').fill(READER_PASSWORD);
    const served = page.waitForResponse((r) => r.request().isNavigationRequest() && new URL(r.url()).pathname === link, { timeout: 20_000 });
    await page.getByTestId('login-submit').click();
    const res = await served;
    expect(res.status()).toBe(200);
    expect((await res.body()).equals(PNG)).toBe(true);
    await expect(page).toHaveURL(`${baseURL}${link}`);
    await context.close();
  });

  for (const returnUrl of ['//evil.example', 'https://evil.example', '/\\evil.example']) {
    test(`a return address to another site (${returnUrl}) is ignored: the sign-in lands on the CRM's home`, async ({ browser, request, baseURL }) => {
      const email = await newReader(request, await apiToken(request), 'Nikos', 'elsewhere');

      const context = await browser.newContext();
      await context.addCookies([{ name: 'language', value: 'en-UK', url: baseURL! }]);
      const page = await context.newPage();
      const elsewhere: string[] = [];
      page.on('request', (r) => {
        if (!r.url().startsWith(baseURL!)) elsewhere.push(r.url());
      });
      await page.goto(`/login?returnUrl=${encodeURIComponent(returnUrl)}`);
      await page.getByTestId('login-email').fill(email);
      await page.getByTestId('login-password').fill(READER_PASSWORD);
      await page.getByTestId('login-submit').click();
      await expect(page).toHaveURL(`${baseURL}/CRM`);
      await expect(page.getByTestId('page-title')).toHaveText('Home');
      expect(elsewhere).toEqual([]);
      await context.close();
    });
  }
});
