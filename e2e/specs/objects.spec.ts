import zlib from 'node:zlib';
import { pick } from '../pages/picker.ts';
import { expect, test, type APIRequestContext, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { ADMIN, createObject, expectAccessible, unique } from '../fixtures.ts';
import { RecordPage } from '../pages/record.ts';

/**
 * Objects (properties): list, add, edit with auto-save, photos, contacts and past tenants, view,
 * delete — in English and in Greek; axe on the list, view, edit and expanded pages at desktop and
 * phone size. Data is seeded through the API.
 */
const LANGUAGES = [
  { cookie: 'en-UK', culture: 'en', saved: 'All changes saved', header: 'Property #', refColumn: '#', confirm: (ref: string) => `Delete property #${ref}?`, photosError: 'Error', orderSaved: 'Order saved', progress: /^\d+ of \d+ details filled in$/, lift: 'Lift', yes: 'Yes', no: 'No' },
  { cookie: 'el', culture: 'el', saved: 'Όλες οι αλλαγές αποθηκεύτηκαν', header: 'Ακίνητο #', refColumn: 'Κωδ.', confirm: (ref: string) => `Να διαγραφεί το ακίνητο #${ref};`, photosError: 'Σφάλμα', orderSaved: 'Η σειρά αποθηκεύτηκε', progress: /^Έχουν συμπληρωθεί \d+ από \d+ στοιχεία$/, lift: 'Ανελκυστήρας', yes: 'Ναι', no: 'Όχι' },
] as const;

type Session = { token: string };
const auth = (token: string, culture = 'en') => ({ authorization: `Bearer ${token}`, 'accept-language': culture });

async function signInByApi(request: APIRequestContext): Promise<Record<string, unknown> & Session> {
  const res = await request.post('/api/authenticate/login', { data: { username: ADMIN.email, password: ADMIN.password } });
  expect(res.ok()).toBeTruthy();
  return res.json();
}

async function openAs(context: BrowserContext, request: APIRequestContext, baseURL: string, language: string): Promise<{ page: Page; token: string }> {
  const session = await signInByApi(request);
  await context.addCookies([{ name: 'language', value: language, url: baseURL }]);
  await context.addInitScript((s) => window.localStorage.setItem('crm.session', s), JSON.stringify(session));
  return { page: await context.newPage(), token: session.token };
}

async function createAccount(request: APIRequestContext, token: string, body: Record<string, unknown>): Promise<number> {
  const res = await request.post('/api/account/add', { data: body, headers: auth(token) });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()).id as number;
}

type Option = { value: number | string; text: string; parent?: number | string | null };
type EditAnswer = {
  object: { id: number; referenceNumber: string; version: number } & Record<string, unknown>;
  objectSelectLists: Record<string, Option[]>;
  objectAccountRelationSelectList: Option[];
  objectAccounts: { price: number | null }[];
};
async function editOf(request: APIRequestContext, token: string, id: number, culture = 'en'): Promise<EditAnswer> {
  const res = await request.get(`/api/object/edit/${id}`, { headers: auth(token, culture) });
  expect(res.status(), await res.text()).toBe(200);
  return res.json();
}

/** A small solid-colour PNG (a real picture: the server checks content and makes thumbnails). */
function png(r: number, g: number, b: number, size = 24): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const x of buf) c = crcTable[(c ^ x) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const c = Buffer.alloc(4);
    c.writeUInt32BE(crc(td));
    return Buffer.concat([len, td, c]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(size, 0);
  ihdr.writeUInt32BE(size, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: size }, () => [r, g, b]).flat())]);
  const raw = Buffer.concat(Array.from({ length: size }, () => row));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', ihdr), chunk('IDAT', zlib.deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

/** Picks an option of a Mantine Select by its text. */
const choose = (page: Page, testId: string, text: string) => pick(page, testId, text);

const photoIds = (page: Page) => page.getByTestId('photo-item').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-photo-id'))));
/** Three photos (red, green, blue) added at once in the edit form under `names`: the three are shown; their ids in order. */
async function addThreePhotos(page: Page, names: [string, string, string]) {
  const colours: [number, number, number][] = [[200, 40, 40], [40, 200, 40], [40, 40, 200]];
  await page.getByTestId('edit-photos').getByTestId('file-input').setInputFiles(names.map((name, i) => ({ name, mimeType: 'image/png', buffer: png(...colours[i]!) })));
  await expect(page.getByTestId('photo-item')).toHaveCount(3);
  return photoIds(page);
}

for (const L of LANGUAGES) {
  test.describe(`objects (${L.cookie})`, () => {
    test.describe.configure({ timeout: 120000 });

    test('a new property: type and price saved by themselves, three photos reordered, owner and past tenant, then deleted', async ({ context, request, baseURL }) => {
      const { page, token } = await openAs(context, request, baseURL!, L.cookie);
      const ownerLast = unique('Owner');
      const tenantLast = unique('Tenant');
      await createAccount(request, token, { lastName: ownerLast, firstName: 'Γιώργος', isOwner: true });
      await createAccount(request, token, { lastName: tenantLast, firstName: 'Ελένη', isClient: true });

      // Add: a blank property opens in expanded edit.
      await page.goto('/Objects');
      await page.getByTestId('objects-add').first().click();
      await expect(page).toHaveURL(/\/Objects\/View\/\d+\/2$/);
      const id = Number(/View\/(\d+)\/2/.exec(page.url())![1]);
      await expect(page.getByTestId('object-editor')).toHaveAttribute('data-expanded', 'true');
      const edit = await editOf(request, token, id, L.culture);
      const ref = edit.object.referenceNumber;
      await expect(page.getByTestId('object-header')).toHaveText(`${L.header}${ref}`);

      // Category, then a subtype of that category (the list offers only those), and a sale price.
      const types = edit.objectSelectLists.objectTypes!;
      const residential = types.find((o) => String(o.value) === '1')!;
      const subtypes = edit.objectSelectLists.objectSubTypes!.filter((o) => String(o.parent) === '1');
      const other = edit.objectSelectLists.objectSubTypes!.find((o) => String(o.parent) !== '1')!;
      await choose(page, 'field-subTypeObjectTypeId', residential.text);
      await page.getByTestId('field-objectSubTypeId').click();
      await expect(page.getByRole('option', { name: subtypes[0]!.text, exact: true })).toBeVisible();
      await expect(page.getByRole('option', { name: other.text, exact: true })).toHaveCount(0);
      await page.getByRole('option', { name: subtypes[2]!.text, exact: true }).click();
      await page.getByTestId('field-forSale').check();
      // As agents write prices: "245.000" in Greek, "245,000" in English, both 245 000 € (a point
      // before three digits was once read as a decimal mark, and 245 € was saved without a word).
      await page.getByTestId('field-salePrice').pressSequentially(L.cookie === 'el' ? '245.000' : '245,000');
      await page.getByTestId('field-bedrooms').fill('3');
      await expect(page.getByTestId('save-status')).toHaveAttribute('data-status', 'saved');
      await expect(page.getByTestId('save-status')).toContainText(L.saved);

      // A reload shows what was saved.
      await page.reload();
      await expect(page.getByTestId('field-salePrice')).toHaveValue(/245\s000/);
      await expect(page.getByTestId('field-objectSubTypeId')).toHaveValue(subtypes[2]!.text);
      // The form opens with how far it is filled in, then the owner and the publishing, then the sections.
      await expect(page.getByTestId('edit-progress-text')).toHaveText(L.progress);
      const order = await page.getByTestId('object-editor').locator('[data-testid="edit-progress"], [data-testid="edit-contacts"], [data-testid="service-info"], [data-testid="edit-main"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')));
      expect(order).toEqual(['edit-progress', 'edit-contacts', 'service-info', 'edit-main']);
      // Yes/no features are a checklist: ✓ says it has it, ✗ that it has not, the pressed mark again takes it back.
      const main = page.getByTestId('edit-progress-main');
      const mainBefore = await main.textContent();
      await page.getByRole('button', { name: `${L.lift}: ${L.yes}`, exact: true }).click();
      await expect(page.getByTestId('field-elevator')).toHaveAttribute('data-value', 'true');
      await page.getByRole('button', { name: `${L.lift}: ${L.no}`, exact: true }).click();
      await expect(page.getByTestId('field-elevator')).toHaveAttribute('data-value', 'false');
      await expect(page.getByTestId('field-elevator-no')).toHaveAttribute('aria-pressed', 'true');
      await expect(page.getByTestId('save-status')).toHaveAttribute('data-status', 'saved');
      await expect.poll(async () => (await editOf(request, token, id)).object.elevator).toBe(false);
      await page.getByTestId('field-storageSpace-yes').click();
      await page.getByTestId('field-storageSpace-yes').click();
      await expect(page.getByTestId('field-storageSpace')).toHaveAttribute('data-value', 'null');
      await expect(main).toHaveText(mainBefore ?? '');
      await expect(page.getByTestId('edit-progress-additional')).toHaveText(/ [1-9]\d*\/\d+$/);
      const stored = (await editOf(request, token, id)).object;
      expect(stored.salePrice).toBe(245000);
      expect(stored.objectSubTypeId).toBe(Number(subtypes[2]!.value));
      expect(stored.forSale).toBe(true);

      // Three photos at once; a document is refused with the 'Error' dialog.
      const before = await addThreePhotos(page, ['kitchen.png', 'balcony.png', 'bedroom.png']);
      // Drag the third photo onto the first.
      await page.getByTestId('photo-item').nth(2).dragTo(page.getByTestId('photo-item').nth(0));
      await expect.poll(() => photoIds(page)).toEqual([before[2], before[0], before[1]]);
      // And with the keyboard: the first photo one place to the right.
      await page.getByTestId('photo-handle').nth(0).focus();
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => photoIds(page)).toEqual([before[0], before[2], before[1]]);
      await expect(page.getByTestId('photo-order-status')).toHaveAttribute('data-status', 'saved');
      await expect(page.getByTestId('photo-order-status')).toContainText(L.orderSaved);
      await page.reload();
      await expect.poll(() => photoIds(page)).toEqual([before[0], before[2], before[1]]);
      // By its button, the second photo to the front: "earlier" is then disabled, and the focus stays
      // on that photo (its "later" button) instead of falling to the top of the page.
      await page.getByTestId('photo-item').nth(1).getByTestId('photo-earlier').click();
      await expect.poll(() => photoIds(page)).toEqual([before[2], before[0], before[1]]);
      await expect(page.getByTestId('photo-item').nth(0).getByTestId('photo-later')).toBeFocused();
      await expect(page.getByTestId('photo-order-status')).toHaveAttribute('data-status', 'saved');
      await page.getByTestId('edit-photos').getByTestId('file-input').setInputFiles([{ name: 'contract.txt', mimeType: 'text/plain', buffer: Buffer.from('not a photo') }]);
      await expect(page.getByRole('dialog', { name: L.photosError })).toBeVisible();
      await expect(page.getByTestId('photo-error')).toContainText('contract.txt');
      await page.getByRole('dialog', { name: L.photosError }).getByRole('button').first().click();
      await expect(page.getByTestId('photo-item')).toHaveCount(3);

      // The owner, and a tenant whose lease ended last year.
      const relations = edit.objectAccountRelationSelectList;
      const ownerText = relations.find((o) => String(o.value) === '1')!.text;
      const tenantText = relations.find((o) => String(o.value) === '4')!.text;
      const lastYear = new Date().getFullYear() - 1;
      await page.getByTestId('contact-add').click();
      await page.getByTestId('contact-account-picker').fill(ownerLast);
      await page.getByRole('option', { name: new RegExp(ownerLast) }).click();
      await choose(page, 'contact-relation-select', ownerText);
      await page.getByTestId('contact-save').click();
      await expect(page.getByTestId('edit-contacts').getByTestId('contact-line')).toHaveCount(1);

      await page.getByTestId('contact-add').click();
      await page.getByTestId('contact-account-picker').fill(tenantLast);
      await page.getByRole('option', { name: new RegExp(tenantLast) }).click();
      await choose(page, 'contact-relation-select', tenantText);
      await page.getByTestId('contact-start').fill(`01/02/${lastYear - 1}`);
      await page.getByTestId('contact-end').fill(`31/01/${lastYear}`);
      await page.getByTestId('contact-price').fill(L.cookie === 'el' ? '1.250,50' : '1,250.50');
      await page.getByTestId('contact-payday').fill('0');
      await page.getByTestId('contact-save').click();
      await expect(page.getByTestId('edit-contacts').getByTestId('contact-line')).toHaveCount(2);

      // The view: price, photos in their order, the owner under contacts, the tenant under last year's button.
      await page.getByTestId('edit-toggle').click();
      await expect(page).toHaveURL(new RegExp(`/Objects/View/${id}/0$`));
      await expect(page.getByTestId('price-salePrice')).toContainText(/245\s000\s€/);
      await expect(page.getByTestId('photo-carousel')).toHaveAttribute('data-count', '3');
      const contacts = page.getByTestId('contacts-card');
      await expect(contacts.getByTestId('contact-line').filter({ hasText: ownerLast })).toBeVisible();
      await expect(contacts.getByTestId('contact-line').filter({ hasText: tenantLast })).toHaveCount(0);
      const year = page.getByTestId(`tenant-year-${lastYear}`);
      await expect(year).toBeVisible();
      await year.click();
      await expect(page.getByTestId('tenant-year-list')).toContainText(tenantLast);
      expect((await editOf(request, token, id)).objectAccounts.map((l) => l.price)).toContain(1250.5);
      await year.click();
      await expect(page.getByTestId('tenant-year-list')).toHaveCount(0);

      // A value of the view is edited on its own (single-field editor).
      await page.getByTestId('editable-bedrooms-edit').click();
      await page.getByTestId('field-editor').getByTestId('field-input').fill('4');
      await page.getByTestId('field-editor-save').click();
      await expect(page.getByTestId('field-editor')).toHaveCount(0);
      await expect(page.getByTestId('editable-bedrooms')).toContainText('4');
      expect((await editOf(request, token, id)).object.bedrooms).toBe(4);

      // Opened by reference number too.
      await page.goto(`/Objects/View/ref${ref}`);
      await expect(page.getByTestId('object-header')).toHaveText(`${L.header}${ref}`);

      // Delete, with the spec's confirmation; then back where the user came from.
      await page.goto('/Objects');
      await page.locator(`a[href="/Objects/View/${id}"]`).click();
      await expect(page.getByTestId('object-view')).toBeVisible();
      // Cancelled from the keyboard, the focus is back on the menu's button, not at the page's top.
      await page.getByTestId('object-menu').focus();
      await page.keyboard.press('Enter');
      await page.getByTestId('delete-object').focus();
      await page.keyboard.press('Enter');
      await expect(page.getByRole('dialog')).toContainText(L.confirm(ref));
      // Escape is the dialog's once it holds the focus (it takes it a moment after it shows).
      await expect.poll(() => page.evaluate(() => document.activeElement?.closest('[role="dialog"]') != null)).toBe(true);
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog')).toHaveCount(0);
      await expect(page.getByTestId('object-menu')).toBeFocused();
      const property = new RecordPage(page);
      await property.askDelete('delete-object', 'object-menu');
      await expect(property.dialog).toContainText(L.confirm(ref));
      await property.confirmDelete();
      await expect(page).toHaveURL(/\/Objects$/);
      expect((await request.get(`/api/object/view/${id}`, { headers: auth(token) })).status()).toBe(404);
    });

    test('the list pages and sorts, keeps its page size in a cookie and links to the property and its owner', async ({ context, request, baseURL }) => {
      const { page, token } = await openAs(context, request, baseURL!, L.cookie);
      const ownerLast = unique('Listowner');
      const owner = await createAccount(request, token, { lastName: ownerLast, firstName: 'Μαρία', isOwner: true });
      const add = await request.get('/api/object/add', { headers: auth(token) });
      const obj = (await add.json()) as { id: number; referenceNumber: string };
      const link = await request.post('/api/objectAccount/add', { data: { objectId: obj.id, accountId: owner, relation: 1 }, headers: auth(token) });
      expect(link.status(), await link.text()).toBe(200);

      await page.goto('/Objects');
      const table = page.getByTestId('objects-table');
      await expect(page.getByTestId('objects-count')).not.toHaveText('…');
      const row = table.getByTestId('objects-table-row').filter({ has: page.locator(`a[href="/Objects/View/${obj.id}"]`) });
      await expect(row).toBeVisible();
      await expect(row.getByTestId('owner-link')).toHaveAttribute('href', `/Accounts/View/${owner}`);
      await expect(row.getByTestId('object-link')).toHaveText(`#${obj.referenceNumber}`);

      await page.getByTestId('objects-table-page-size').click();
      await expect(page.getByRole('option')).toHaveText(['5', '20', '100']);
      await page.getByRole('option', { name: '5', exact: true }).click();
      const total = Number(await page.getByTestId('objects-count').textContent());
      const shown = Math.min(5, total);
      await expect(table.getByTestId('objects-table-row')).toHaveCount(shown);
      const cookies = await context.cookies();
      expect(cookies.find((c) => c.name === 'ObjectList.perPage')?.value).toBe('5');
      // Set for ten years; Chromium keeps a cookie at most 400 days.
      expect(cookies.find((c) => c.name === 'ObjectList.perPage')!.expires).toBeGreaterThan(Date.now() / 1000 + 390 * 24 * 3600);
      await page.reload();
      await expect(table.getByTestId('objects-table-row')).toHaveCount(shown);

      // Sorting by reference number: ascending, kept in the list's cookie.
      // The header is a button named by its title; its header cell tells the order (aria-sort).
      await table.getByRole('button', { name: L.refColumn, exact: true }).click();
      await expect(table.getByRole('columnheader', { name: L.refColumn, exact: true })).toHaveAttribute('aria-sort', 'ascending');
      await expect.poll(async () => JSON.parse(decodeURIComponent((await context.cookies()).find((c) => c.name === 'ObjectList.sort')?.value ?? '{}')).sortBy).toBe('referenceNumber');
      // The rows follow the cookie once the sorted page has arrived (the old page stays until then).
      await expect
        .poll(async () => {
          const refs = await table.getByTestId('object-link').allTextContents();
          return refs.length === shown && refs.join() === [...refs].sort().join();
        })
        .toBe(true);

      // The owner's #number links to the property by reference number.
      await page.goto(`/Accounts/View/${owner}`);
      const refLink = page.getByTestId('object-ref').filter({ hasText: obj.referenceNumber }).first();
      await expect(refLink).toHaveAttribute('href', `/Objects/View/ref${obj.referenceNumber}`);
      await refLink.click();
      await expect(page.getByTestId('object-header')).toHaveText(`${L.header}${obj.referenceNumber}`);
    });
  });
}

test("an owner's page adds a property: one, owned by them, opened for editing, and the list links back", async ({ context, request, baseURL }) => {
  const { page, token } = await openAs(context, request, baseURL!, 'en-UK');
  const ownerLast = unique('Homeowner');
  const owner = await createAccount(request, token, { lastName: ownerLast, firstName: 'Dimitra', isOwner: true });
  await page.goto(`/Accounts/View/${owner}`);
  await page.getByTestId('account-menu').click();
  const add = page.getByTestId('add-property');
  await expect(add).toHaveText('Add property');
  // Clicked twice in a row (an impatient double click): still one property.
  await add.dblclick();
  await expect(page).toHaveURL(/\/Objects\/View\/\d+\/2$/);
  const id = Number(/\/Objects\/View\/(\d+)\/2$/.exec(page.url())![1]);
  await expect(page.getByTestId('edit-contacts').getByTestId('contact-line')).toHaveCount(1);
  await expect(page.getByTestId('edit-contacts').getByTestId('contact-line')).toContainText(ownerLast);
  const owned = async () => ((await (await request.get(`/api/account/view/${owner}`, { headers: auth(token) })).json()) as { ownedObjectsReferenceNumbers: string }).ownedObjectsReferenceNumbers;
  // Untouched, it is a draft (decision 076): not yet among the owner's properties.
  expect(await owned()).toBe('');
  // Something entered: it is the owner's property, and stays when the page is left.
  await page.getByTestId('field-title').fill('Flat on the square');
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-status', 'saved');
  const refs = (await owned()).split(' ').filter(Boolean);
  expect(refs).toHaveLength(1);
  const ref = refs[0]!;
  await page.getByTestId('edit-toggle').click();
  await expect(page).toHaveURL(new RegExp(`/Objects/View/${id}/0$`));
  await expect(page.getByTestId('contacts-card').getByTestId('contact-line').filter({ hasText: ownerLast })).toBeVisible();

  await page.goto('/Objects');
  const row = page.getByTestId('objects-table').getByTestId('objects-table-row').filter({ has: page.locator(`a[href="/Objects/View/${id}"]`) });
  await expect(row.getByTestId('object-link')).toHaveText(`#${ref}`);
  await expect(row.getByTestId('owner-link')).toHaveAttribute('href', `/Accounts/View/${owner}`);
  await row.getByTestId('owner-link').click();
  await expect(page).toHaveURL(new RegExp(`/Accounts/View/${owner}$`));
  await expect(page.getByTestId('object-ref').filter({ hasText: ref })).toHaveAttribute('href', `/Objects/View/ref${ref}`);
});

test('the Actions menu of an account offers a new property in Greek and Russian', async ({ browser, request, baseURL }) => {
  const token = (await signInByApi(request)).token;
  const owner = await createAccount(request, token, { lastName: unique('Menuowner'), firstName: 'Eleni', isOwner: true });
  for (const [language, text] of [['el', 'Νέο ακίνητο'], ['ru', 'Новый объект']] as const) {
    const context = await browser.newContext();
    const { page } = await openAs(context, request, baseURL!, language);
    await page.goto(`/Accounts/View/${owner}`);
    await page.getByTestId('account-menu').click();
    await expect(page.getByTestId('add-property')).toHaveText(text);
    await context.close();
  }
});

test('a property without an id says so', async ({ context, request, baseURL }) => {
  const { page } = await openAs(context, request, baseURL!, 'en-UK');
  await page.goto('/Objects/View');
  await expect(page.getByTestId('object-no-id')).toHaveText('Property ID undefined');
});

test('a new property left with Back before anything is entered is not kept in the list; one with a field saved, or left for its Add key form, stays', async ({ context, request, baseURL }) => {
  const { page, token } = await openAs(context, request, baseURL!, 'en-UK');
  const status = async (id: number) => (await request.get(`/api/object/edit/${id}`, { headers: auth(token) })).status();
  const add = async () => {
    await page.getByTestId('objects-add').first().click();
    await expect(page).toHaveURL(/\/Objects\/View\/\d+\/2$/);
    const id = Number(/View\/(\d+)\/2/.exec(page.url())![1]);
    await expect(page.getByTestId('object-editor')).toBeVisible();
    const ref = (await editOf(request, token, id)).object.referenceNumber;
    await expect(page.getByTestId('object-header')).toHaveText(`Property #${ref}`);
    return { id, ref };
  };
  const back = async () => {
    await page.goBack();
    await expect(page).toHaveURL(/\/Objects$/);
    await expect(page.getByTestId('objects-count')).not.toHaveText('…');
  };
  const table = page.getByTestId('objects-table');
  // A property left is discarded at once, if at all: what the discards asked so far were answered.
  const discards: Promise<unknown>[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname.toLowerCase() === '/api/object/discard') discards.push(r.response());
  });
  const discardsAnswered = () => Promise.all(discards);

  // Added, then Back at once: the blank property is removed, and the list does not show it, after a reload either.
  await page.goto('/Objects');
  const empty = await add();
  await back();
  await expect.poll(() => status(empty.id)).toBe(404);
  await expect(table.locator(`a[href="/Objects/View/${empty.id}"]`)).toHaveCount(0);
  await expect(table.getByText(`#${empty.ref}`, { exact: true })).toHaveCount(0);
  await page.reload();
  await expect(page.getByTestId('objects-count')).not.toHaveText('…');
  await expect(table.locator(`a[href="/Objects/View/${empty.id}"]`)).toHaveCount(0);

  // Added, then Add key from its view: the key form is for this property, which stays.
  const keyed = await add();
  await page.getByTestId('edit-toggle').click();
  await page.getByTestId('object-add-key').click();
  await expect(page).toHaveURL(new RegExp(`/ObjectKeys/new\\?objectId=${keyed.id}$`));
  await expect(page.getByTestId('key-object')).toHaveText(`#${keyed.ref}`);
  await discardsAnswered();
  expect(await status(keyed.id)).toBe(200);
  await page.goto('/Objects');

  // Added, the bedrooms typed and saved, then Back: it stays, and its reference number is a new one.
  const kept = await add();
  expect(Number(kept.ref)).toBeGreaterThan(Number(empty.ref));
  await page.getByTestId('field-bedrooms').fill('2');
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-status', 'saved');
  await back();
  await discardsAnswered();
  expect(await status(kept.id)).toBe(200);
});

test('a new property left while its first photo is being attached is not discarded: the upload and the attach count as one (decision 010)', async ({ context, request, baseURL }) => {
  const { page, token } = await openAs(context, request, baseURL!, 'en-UK');
  await page.goto('/Objects');
  await page.getByTestId('objects-add').first().click();
  await expect(page).toHaveURL(/\/Objects\/View\/\d+\/2$/);
  const id = Number(/View\/(\d+)\/2/.exec(page.url())![1]);
  await expect(page.getByTestId('object-editor')).toBeVisible();
  // The photo is uploaded; its attach to the property is held on its way until the property has been left.
  let attachSent!: () => void;
  const attaching = new Promise<void>((resolve) => (attachSent = resolve));
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/files/setParent', async (route) => {
    attachSent();
    await held;
    await route.continue();
  });
  const discards: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname.toLowerCase() === '/api/object/discard') discards.push(r.postData() ?? '');
  });
  await page.getByTestId('edit-photos').getByTestId('file-input').setInputFiles([{ name: 'front.png', mimeType: 'image/png', buffer: png(120, 160, 200) }]);
  await attaching;
  await page.goBack();
  await expect(page).toHaveURL(/\/Objects$/);
  await expect(page.getByTestId('objects-count')).not.toHaveText('…');
  // Leaving asked the server to discard nothing (it asks as the view goes, before the list asks for its
  // rows); once the attach arrives, the property has its photo.
  expect(discards).toEqual([]);
  release();
  await expect.poll(async () => ((await editOf(request, token, id)).object.images as unknown[]).length).toBe(1);
});

test("a value edited on its own while someone else saves: their change of another field does not stop it, their change of the same one keeps what was typed", async ({ context, request, baseURL }) => {
  const { page, token } = await openAs(context, request, baseURL!, 'en-UK');
  const o = await createObject(request, token, { title: 'Flat for two editors', forSale: true, salePrice: 150000, bedrooms: 2, bathrooms: 1 });
  const stored = async () => (await editOf(request, token, o.id)).object;
  const theySave = async (field: string, value: unknown) => {
    const res = await request.fetch(`/api/object/patch/${o.id}?version=${(await stored()).version}`, { method: 'PATCH', data: [{ op: 'replace', path: `/${field}`, value }], headers: auth(token) });
    expect(res.status(), await res.text()).toBe(200);
  };
  await page.goto(`/Objects/View/${o.id}`);
  const editor = page.getByTestId('field-editor');

  // They change the bedrooms while I type the bathrooms: mine is saved on their version.
  await page.getByTestId('editable-bathrooms-edit').click();
  // A word where a whole number goes: the example is a whole number, not a price with cents.
  await editor.getByTestId('field-input').fill('two');
  await expect(editor).toContainText('Not a number: write it as 3 or 1250');
  await editor.getByTestId('field-input').fill('2');
  await theySave('bedrooms', 3);
  await page.getByTestId('field-editor-save').click();
  await expect(editor).toHaveCount(0);
  expect(await stored()).toMatchObject({ bathrooms: 2, bedrooms: 3 });

  // They change the bathrooms too: what I typed stays in the dialog, theirs is named, and Save puts mine.
  await page.getByTestId('editable-bathrooms-edit').click();
  await editor.getByTestId('field-input').fill('4');
  await theySave('bathrooms', 1);
  await page.getByTestId('field-editor-save').click();
  await expect(page.getByTestId('field-editor-error')).toContainText('Someone else changed this field meanwhile; it now reads “1”');
  await expect(editor.getByTestId('field-input')).toHaveValue('4');
  await expectAccessible(page, 'field editor after a conflict');
  await page.getByTestId('field-editor-save').click();
  await expect(editor).toHaveCount(0);
  await expect(page.getByTestId('editable-bathrooms')).toContainText('4');
  expect(await stored()).toMatchObject({ bathrooms: 4, bedrooms: 3 });
});

test('hiding the exact place draws a circle that holds the point without being centred on it; one put on the point is flagged', async ({ context, request, baseURL }) => {
  const { page, token } = await openAs(context, request, baseURL!, 'el');
  const o = await createObject(request, token, { title: 'Flat with a hidden address', latitude: 40.5812, longitude: 22.9501, displayCoordinates: true });
  await page.goto(`/Objects/View/${o.id}/1`);
  const map = page.getByTestId('edit-map');
  await map.getByLabel('Εμφάνιση ακριβούς θέσης').click({ force: true });
  const centreLat = map.getByLabel('Κέντρο περιοχής, πλάτος');
  await expect(centreLat).not.toHaveValue('');
  await expect(page.getByTestId('save-status')).toHaveAttribute('data-status', 'saved');
  const saved = (await editOf(request, token, o.id)).object as Record<string, number | boolean>;
  expect(saved.displayCoordinates).toBe(false);
  // Inside the 2,500 m circle, between a quarter and half of it from the centre.
  const metres = Math.hypot((Number(saved.mapCircleLatitude) - 40.5812) * 111320, (Number(saved.mapCircleLongitude) - 22.9501) * 111320 * Math.cos((40.5812 * Math.PI) / 180));
  expect(saved.mapCircleRadius).toBe(2500);
  expect(metres).toBeGreaterThanOrEqual(620);
  expect(metres).toBeLessThanOrEqual(1251);
  await expect(page.getByTestId('object-map-editor-circle-on-point')).toHaveCount(0);
  // The centre typed on the point itself: the editor says it would give the address away.
  await centreLat.fill('40.5812');
  await map.getByLabel('Κέντρο περιοχής, μήκος').fill('22.9501');
  await expect(page.getByTestId('object-map-editor-circle-on-point')).toContainText('Ο κύκλος έχει κέντρο το ακριβές σημείο');
  await expectAccessible(page, 'map editor with a circle on its point');
});

test('a property opened by its reference asks for itself once, as the navigation begins', async ({ context, request, baseURL }) => {
  const { page, token } = await openAs(context, request, baseURL!, 'el');
  const obj = (await (await request.get('/api/object/add', { headers: auth(token) })).json()) as { id: number; referenceNumber: string };
  const ref = `ref${obj.referenceNumber}`;
  const events: string[] = [];
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (u.pathname.startsWith('/api/object/view/')) events.push(`ask ${u.pathname}`);
  });
  page.on('requestfinished', (r) => {
    if (/\/object-view-page-[\w-]+\.js$/.test(new URL(r.url()).pathname)) events.push('code');
  });
  await page.goto(`/Objects/View/${ref}`);
  await expect(page.getByTestId('object-page')).toContainText(obj.referenceNumber);
  expect(events.filter((e) => e === `ask /api/object/view/${ref}`), events.join('\n')).toHaveLength(1);
  expect(events.indexOf('code'), events.join('\n')).toBeGreaterThan(-1);
  expect(events.indexOf(`ask /api/object/view/${ref}`)).toBeLessThan(events.indexOf('code'));
});

const SIZES = [
  { name: 'desktop', viewport: { width: 1280, height: 800 }, isMobile: false },
  { name: 'phone', viewport: { width: 390, height: 844 }, isMobile: true },
] as const;

/** A property with something in every block of the view. */
async function richObject(request: APIRequestContext, token: string): Promise<number> {
  const obj = (await (await request.get('/api/object/add', { headers: auth(token) })).json()) as { id: number; version: number };
  const edit = await editOf(request, token, obj.id);
  const sub = edit.objectSelectLists.objectSubTypes!.find((o) => String(o.parent) === '1')!;
  const res = await request.post('/api/object/update', {
    headers: auth(token),
    data: {
      id: obj.id,
      version: edit.object.version,
      title: 'Sunny flat near the sea in Kalamaria',
      objectSubTypeId: Number(sub.value),
      subTypeObjectTypeId: 1,
      forSale: true,
      forRent: true,
      salePrice: 245000,
      salePriceWithDiscount: 229000,
      dateOfSalePriceDiscount: '2026-09-01',
      rentPrice: 900,
      area: 96,
      bedrooms: 3,
      bathrooms: 2,
      floor: 4,
      distanceFromSea: 350,
      distanceFromAirport: 12400,
      constructionYear: 2004,
      seaView: true,
      fireplace: false,
      elevator: true,
      petsWelcome: true,
      description: 'Bright corner flat, fully renovated, two balconies.',
      internalNotes: 'Keys with the concierge',
      publishRequested: true,
    },
  });
  expect(res.status(), await res.text()).toBe(200);
  const owner = await createAccount(request, token, { lastName: unique('Axeowner'), firstName: 'Nikos', isOwner: true });
  const tenant = await createAccount(request, token, { lastName: unique('Axetenant'), firstName: 'Anna', isClient: true });
  const y = new Date().getFullYear() - 1;
  for (const data of [
    { objectId: obj.id, accountId: owner, relation: 1 },
    { objectId: obj.id, accountId: tenant, relation: 4, startDate: `${y - 1}-03-01`, endDate: `${y}-02-28`, price: 650, rentPaymentDay: -3 },
  ]) {
    const r = await request.post('/api/objectAccount/add', { data, headers: auth(token) });
    expect(r.status(), await r.text()).toBe(200);
  }
  return obj.id;
}

async function sizedContext(browser: Browser, baseURL: string, size: (typeof SIZES)[number], language: string, session: unknown) {
  const ctx = await browser.newContext({ viewport: size.viewport, isMobile: size.isMobile, hasTouch: size.isMobile });
  await ctx.addCookies([{ name: 'language', value: language, url: baseURL }]);
  await ctx.addInitScript((s) => window.localStorage.setItem('crm.session', s), JSON.stringify(session));
  return ctx;
}

// Each screen in both languages and at both sizes, two of the four pairs each (as in a11y.spec.ts).
for (const [sizeIndex, size] of SIZES.entries()) {
  for (const [languageIndex, language] of (['en-UK', 'el'] as const).entries()) {
    test(`object screens pass axe (${size.name}, ${language})`, async ({ browser, request, baseURL }) => {
      test.setTimeout(120000);
      const session = await signInByApi(request);
      const id = await richObject(request, session.token);
      const ctx = await sizedContext(browser, baseURL!, size, language, session);
      const page = await ctx.newPage();
      for (const [index, [path, ready]] of ([
        ['/Objects', 'objects-table'],
        [`/Objects/View/${id}`, 'object-view'],
        [`/Objects/View/${id}/1`, 'object-editor'],
        [`/Objects/View/${id}/2`, 'object-editor'],
      ] as const).entries()) {
        if ((index + sizeIndex + languageIndex) % 2 === 1) continue;
        await page.goto(path);
        await expect(page.getByTestId(ready)).toBeVisible();
        await expectAccessible(page, `${path} ${size.name} ${language}`);
      }
      await ctx.close();
    });
  }
}

test('on a phone, a photo is moved by dragging its handle with a finger', async ({ browser, request, baseURL }) => {
  test.setTimeout(90000);
  const session = await signInByApi(request);
  const obj = (await (await request.get('/api/object/add', { headers: auth(session.token) })).json()) as { id: number };
  const ctx = await sizedContext(browser, baseURL!, SIZES.find((s) => s.isMobile)!, 'el', session);
  const page = await ctx.newPage();
  await page.goto(`/Objects/View/${obj.id}/1`);
  const before = await addThreePhotos(page, ['one.png', 'two.png', 'three.png']);
  // A real touch (not a mouse): the third photo's handle is pressed, dragged onto the first photo and let go.
  await page.getByTestId('photo-list').scrollIntoViewIfNeeded();
  const handle = (await page.getByTestId('photo-handle').nth(2).boundingBox())!;
  const target = (await page.getByTestId('photo-item').nth(0).boundingBox())!;
  const cdp = await ctx.newCDPSession(page);
  const from = { x: handle.x + handle.width / 2, y: handle.y + handle.height / 2 };
  const to = { x: target.x + target.width / 2, y: target.y + target.height / 3 };
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [from] });
  for (let step = 1; step <= 5; step++) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: from.x + ((to.x - from.x) * step) / 5, y: from.y + ((to.y - from.y) * step) / 5 }] });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await expect.poll(() => photoIds(page)).toEqual([before[2], before[0], before[1]]);
  // Stored: the order survives a reload.
  await page.reload();
  await expect.poll(() => photoIds(page)).toEqual([before[2], before[0], before[1]]);
  await ctx.close();
});
