import path from 'node:path';
import { expect, test } from '@playwright/test';
import { apiToken, createObject, expectAccessible, patchField, placeId, signedIn } from '../fixtures.ts';

/**
 * A property's English title and description, beside the main (Greek) ones: typed in the property's
 * form, they head its page on an English screen and are kept among its texts, marked as English, on
 * a Greek one; once published, the public site in English shows them and in Greek the main ones.
 */
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
/** A real picture for the property's photo (the server checks the content and makes its copies). */
const PHOTO = path.resolve(import.meta.dirname, '../../apps/web/public/icons/icon-512.png');

const L = {
  'en-UK': { site: 'en', saved: 'All changes saved' },
  el: { site: 'el', saved: 'Όλες οι αλλαγές αποθηκεύτηκαν' },
} as const;

for (const language of ['en-UK', 'el'] as const) {
  test(`a property's English title and description, in its form, on its page and on the public site (${language})`, async ({ browser, request, baseURL }) => {
    test.setTimeout(120_000);
    const words = L[language];
    const token = await apiToken(request);
    const mark = `${language === 'el' ? 'el' : 'en'}${Date.now() % 1000000}`;
    const greek = `Διαμέρισμα με θέα στην Καλαμαριά ${mark}`;
    const greekText = `Φωτεινό διαμέρισμα δύο υπνοδωματίων με μεγάλο μπαλκόνι (${mark}).`;
    const english = `Bright two-bedroom flat in Kalamaria ${mark}`;
    const englishText = `A bright two-bedroom flat with a large balcony and an open view (${mark}).`;
    const place = await placeId(request, token, 'Kalamaria');
    const o = await createObject(request, token, {
      subTypeObjectTypeId: 1,
      objectSubTypeId: 1,
      forSale: true,
      salePrice: 210000,
      area: 92,
      bedrooms: 2,
      locationId: place,
      latitude: 40.5812,
      longitude: 22.9501,
      displayCoordinates: true,
      mapZoom: 16,
      active: true,
      title: greek,
      description: greekText,
    });

    const ctx = await signedIn(browser, baseURL!, token, language);
    const page = await ctx.newPage();
    // The form in its expanded mode: a photo, and the English texts where the Russian ones are.
    await page.goto(`/Objects/View/${o.id}/2`);
    await expect(page.getByTestId('object-editor')).toHaveAttribute('data-expanded', 'true');
    await page.getByTestId('edit-photos').getByTestId('file-input').setInputFiles(PHOTO);
    await expect(page.getByTestId('photo-item')).toHaveCount(1);
    await page.getByTestId('field-titleEn').fill(english);
    await page.getByTestId('field-descriptionEn').fill(englishText);
    await expect(page.getByTestId('save-status')).toHaveAttribute('data-status', 'saved');
    await expect(page.getByTestId('save-status')).toContainText(words.saved);
    await expectAccessible(page, `property form with its English texts (${language})`);
    const stored = (await (await request.get(`/api/object/edit/${o.id}`, { headers: auth(token) })).json()) as { object: Record<string, unknown> };
    expect([stored.object.titleEn, stored.object.descriptionEn]).toEqual([english, englishText]);

    // Its page: an English screen heads with the English title, a Greek one with the main title and
    // keeps the English texts among the others, said in English.
    await page.goto(`/Objects/View/${o.id}`);
    const texts = page.getByTestId('object-texts');
    if (language === 'en-UK') {
      await expect(page.getByTestId('object-title')).toHaveText(english);
      await expect(texts).toContainText(greek);
      await expect(texts.locator('[lang="en"]')).toHaveCount(0);
    } else {
      await expect(page.getByTestId('object-title')).toHaveText(greek);
      await expect(texts.locator('[lang="en"]').filter({ hasText: english })).toHaveCount(1);
      await expect(texts.locator('[lang="en"]').filter({ hasText: englishText })).toHaveCount(1);
    }
    await expectAccessible(page, `property page with its English texts (${language})`);

    // Published, the public site speaks the visitor's language: the English texts in English, the main ones in Greek.
    const asked = await patchField(request, token, 'object', o.id, 'publishRequested', true);
    expect(asked.ok(), await asked.text()).toBeTruthy();
    await expect
      .poll(async () => ((await (await request.get(`/api/object/publishState/${o.id}`, { headers: auth(token) })).json()) as { published: boolean; publishError: string | null }), { timeout: 30_000 })
      .toMatchObject({ published: true, publishError: null });
    const visitor = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const pub = await visitor.newPage();
    await pub.goto(`/listings/${o.referenceNumber}?lang=${words.site}`);
    const article = pub.getByTestId('public-object');
    await expect(article.getByRole('heading', { level: 1 })).toHaveText(language === 'el' ? greek : english);
    await expect(article).toContainText(language === 'el' ? greekText : englishText);
    await expect(article).not.toContainText(language === 'el' ? englishText : greekText);
    await expectAccessible(pub, `public page (${words.site})`);
    await visitor.close();
    await ctx.close();
  });
}
