import fs from 'node:fs';
import { expect, test, type Page, type Request, type TestInfo } from '@playwright/test';
import { openAs } from '../fixtures.ts';

/**
 * A file past the server's limit (50 MB a file, the default) is refused in the browser before
 * anything is sent: the message names the file and the limit, no upload request leaves the page,
 * and the files that fit still go — on an account's files (sent at once) and on a document form
 * (sent on Save, with what was typed kept). In English and in Greek.
 */
const LANGUAGES = [
  {
    cookie: 'en-UK',
    limitHint: 'Up to 50 MB per file.',
    tooLarge: (name: string) => `The file “${name}” is larger than the allowed 50 MB.`,
    uploaded: '1 file was uploaded.',
    added: '1 file was added.',
    photosError: 'Error',
    notAPhoto: (name: string) => `“${name}” cannot be used as a photo: only pictures in JPEG, PNG, WebP, GIF, AVIF or TIFF format can. Convert iPhone HEIC photos to JPEG first.`,
  },
  {
    cookie: 'el',
    limitHint: 'Έως 50 MB ανά αρχείο.',
    tooLarge: (name: string) => `Το αρχείο «${name}» υπερβαίνει το επιτρεπόμενο μέγεθος των 50 MB.`,
    uploaded: 'Ανέβηκε 1 αρχείο.',
    added: 'Προστέθηκε 1 αρχείο.',
    photosError: 'Σφάλμα',
    notAPhoto: (name: string) =>
      `Το «${name}» δεν μπορεί να μπει ως φωτογραφία: γίνονται δεκτές μόνο εικόνες JPEG, PNG, WebP, GIF, AVIF ή TIFF. Μετατρέψτε πρώτα τις φωτογραφίες HEIC του iPhone σε JPEG.`,
  },
] as const;

const MB = 1024 * 1024;
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const stamp = () => Date.now().toString(36).replace(/\d/g, (d) => 'qwxyzjkvbh'[Number(d)]!);

/** A file of `bytes` on disk, sparse (written in no time, taking no space): the browser reads its size, and would read its content only to send it. */
function bigFile(info: TestInfo, name: string, bytes: number): string {
  const p = info.outputPath(name);
  fs.mkdirSync(info.outputDir, { recursive: true });
  const fd = fs.openSync(p, 'w');
  fs.ftruncateSync(fd, bytes);
  fs.closeSync(fd);
  return p;
}

/** A small file on disk (one chooser takes paths, or buffers, not both). */
function smallFile(info: TestInfo, name: string, text: string): string {
  const p = info.outputPath(name);
  fs.mkdirSync(info.outputDir, { recursive: true });
  fs.writeFileSync(p, text);
  return p;
}


/** Every upload request the page sends: POST /api/files, and a document form's save (with its files). */
function watchUploads(page: Page): Request[] {
  const seen: Request[] = [];
  page.on('request', (r) => {
    const path = new URL(r.url()).pathname.toLowerCase();
    if (r.method() === 'POST' && (path === '/api/files' || path.startsWith('/api/documents/'))) seen.push(r);
  });
  return seen;
}

/** What the request's body weighed, once it was answered. */
const sentBytes = async (r: Request) => (await r.sizes()).requestBodySize;

for (const L of LANGUAGES) {
  test.describe(`a file too big is refused before it is sent (${L.cookie})`, () => {
    test('on an account\'s files: the message, no request; the files that fit are uploaded', async ({ context, request, baseURL }, info) => {
      const { page, token } = await openAs(context, request, baseURL!, L.cookie);
      const created = await request.post('/api/account/add', { data: { firstName: 'Limits', lastName: `Uploader${stamp()}` }, headers: auth(token) });
      expect(created.status(), await created.text()).toBe(200);
      const id = (await created.json()).id as number;
      const uploads = watchUploads(page);
      await page.goto(`/Accounts/View/${id}/1`);
      const files = page.getByTestId('record-files');
      await expect(files.getByTestId('file-drop-limit')).toHaveText(L.limitHint);

      // One file of 51 MB: refused at once, nothing sent.
      const video = bigFile(info, 'walkthrough.mp4', 51 * MB);
      await files.getByTestId('file-input').setInputFiles(video);
      await expect(files.getByTestId('files-error')).toHaveText(L.tooLarge('walkthrough.mp4'));
      await expect(files.getByTestId('files-empty')).toBeVisible();
      // The refusal is said instead of sending (an upload would have gone first); the next upload
      // below is the only one sent.
      expect(uploads).toEqual([]);

      // With a small file: the small one is uploaded and attached, the big one named as left out.
      await files.getByTestId('file-input').setInputFiles([video, smallFile(info, 'floor-plan.txt', 'Ground floor: 85 m²')]);
      await expect(files.getByTestId('file-link')).toHaveText(['floor-plan.txt']);
      await expect(files.getByTestId('files-error')).toHaveText(`${L.tooLarge('walkthrough.mp4')}\n${L.uploaded}`);
      expect(uploads).toHaveLength(1);
      expect(await sentBytes(uploads[0]!)).toBeLessThan(10_000);
      const stored = await request.get(`/api/files?parentType=2&parentId=${id}`, { headers: auth(token) });
      expect(((await stored.json()).items as { userName: string }[]).map((f) => f.userName)).toEqual(['floor-plan.txt']);
    });

    test('on an object\'s photos: a camera original past the limit and an iPhone HEIC are refused in the error dialog, nothing sent', async ({ context, request, baseURL }, info) => {
      const { page, token } = await openAs(context, request, baseURL!, L.cookie);
      const obj = (await (await request.get('/api/object/add', { headers: auth(token) })).json()) as { id: number };
      const uploads = watchUploads(page);
      await page.goto(`/Objects/View/${obj.id}/1`);
      const photos = page.getByTestId('edit-photos');
      await photos.getByTestId('file-input').setInputFiles([bigFile(info, 'DSC_0042.jpg', 52 * MB), smallFile(info, 'IMG_0007.heic', 'ftypheic')]);
      const dialog = page.getByRole('dialog', { name: L.photosError });
      await expect(dialog).toBeVisible();
      await expect(page.getByTestId('photo-error')).toHaveText(`${L.tooLarge('DSC_0042.jpg')}\n${L.notAPhoto('IMG_0007.heic')}`);
      // The refusal is said instead of sending: an upload would have gone before it.
      expect(uploads).toEqual([]);
    });

    test('on a document form: the big file is left out at once, what was typed stays, Save sends the rest', async ({ context, request, baseURL }, info) => {
      const { page, token } = await openAs(context, request, baseURL!, L.cookie);
      const uploads = watchUploads(page);
      const name = `${L.cookie === 'el' ? 'Φωτογραφίες παράδοσης' : 'Handover photos'} ${stamp()}`;
      await page.goto('/Document/Add');
      await page.getByTestId('document-name').fill(name);
      await page.getByTestId('document-description-input').fill('Keys and meters · Κλειδιά και μετρητές');
      await page.getByTestId('document-file-input').setInputFiles([bigFile(info, 'IMG_2041.jpg', 60 * MB), smallFile(info, 'meters.txt', 'Power 10432, water 877')]);
      await expect(page.getByTestId('document-form-error')).toHaveText(`${L.tooLarge('IMG_2041.jpg')}\n${L.added}`);
      await expect(page.getByTestId('document-new-file')).toHaveCount(1);
      await expect(page.getByTestId('document-new-file')).toContainText('meters.txt');
      await expect(page.getByTestId('document-name')).toHaveValue(name);
      await expect(page.getByTestId('document-description-input')).toHaveValue('Keys and meters · Κλειδιά και μετρητές');

      await page.getByTestId('document-save').click();
      await expect(page).toHaveURL(/\/Document\/\d+$/);
      await expect(page.getByTestId('document-files').getByTestId('file-link')).toHaveText(['meters.txt']);
      expect(uploads).toHaveLength(1);
      expect(await sentBytes(uploads[0]!)).toBeLessThan(10_000);
      const docId = Number(/\/Document\/(\d+)/.exec(page.url())![1]);
      expect((await request.get(`/api/Documents/edit/${docId}`, { headers: auth(token) })).status()).toBe(200);
    });
  });
}
