import fs from 'node:fs';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { openAs } from '../fixtures.ts';

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

      await row.getByTestId('file-delete').click();
      await page.getByTestId('file-delete-confirm').click();
      await expect(files.getByTestId('file-link')).toHaveText(['Σημειώσεις επίσκεψης.txt']);
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
