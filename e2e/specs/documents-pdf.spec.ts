import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { apiToken, expectAccessible, signedIn } from '../fixtures.ts';
import { readPdf } from '../../apps/server/test/pdf-text.ts';
import { ocr, renderPage, unread } from '../pdf-picture.ts';

/**
 * Documents from templates (decision 084): a demo property's mandate downloaded as a PDF in the
 * reader's language, its first page rendered to PNG and read back by OCR (the Greek glyphs really
 * drawn), the template's title edited in the settings and seen in the next PDF, then the default
 * texts back. Each language edits its own template, so the two runs never meet.
 */
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const unique = () => `${Date.now().toString(36)}${Math.floor(Math.random() * 1000)}`;

const TEXTS = {
  'en-UK': { culture: 'en', language: 'English', file: /^Exclusive mandate \d+ \(en\)\.pdf$/, title: 'EXCLUSIVE REAL-ESTATE AGENCY MANDATE', edited: 'Edited by the agency', byDefault: 'Default text' },
  el: { culture: 'el', language: 'Ελληνικά', file: /^Αποκλειστική εντολή ανάθεσης \d+ \(el\)\.pdf$/, title: 'ΑΠΟΚΛΕΙΣΤΙΚΗ ΕΝΤΟΛΗ ΑΝΑΘΕΣΗΣ ΜΕΣΙΤΕΙΑΣ', edited: 'Τροποποιημένο από το γραφείο', byDefault: 'Προεπιλεγμένο κείμενο' },
} as const;

/** Opens the mandate's Document dialog, picks the language, downloads the PDF: its name and its text. */
async function downloadMandate(page: Page, language: string) {
  await page.getByTestId('object-mandates').getByTestId('mandate-document').first().click();
  const dialog = page.getByRole('dialog');
  await dialog.getByTestId('document-language').getByText(language, { exact: true }).click();
  const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByTestId('document-download').click()]);
  const path = await download.path();
  const pdf = fs.readFileSync(path);
  return { name: download.suggestedFilename(), pdf, text: readPdf(pdf).text.replace(/\s+/g, ' '), dialog };
}

for (const language of ['en-UK', 'el'] as const) {
  const say = TEXTS[language];

  test(`downloads a demo property's mandate as a PDF and sees an edited template in it (${language})`, async ({ browser, request, baseURL }, testInfo) => {
    test.setTimeout(120_000);
    const token = await apiToken(request);
    // The demo's exclusive mandate ending soon: a published demo flat with its owner's mandate.
    const ending = await request.get('/api/Mandate/endingSoon', { headers: auth(token) });
    expect(ending.ok(), await ending.text()).toBeTruthy();
    const mandate = ((await ending.json()).items as { id: number; objectId: number; kind: string; referenceNumber: string }[]).find((m) => m.kind === 'exclusive')!;
    expect(mandate).toBeTruthy();
    // What the first page must show: the agency's name in this language, the owner, the property's reference.
    const site = (await (await request.get('/api/SiteSettings', { headers: auth(token) })).json()) as { name: string | null; nameEl: string | null };
    const agency = (language === 'el' ? (site.nameEl ?? site.name) : (site.name ?? site.nameEl))!;
    const owner = ((await (await request.get(`/api/Mandate/edit/${mandate.id}`, { headers: auth(token) })).json()) as { owners: { name: string }[] }).owners[0]!.name;
    expect(agency && owner && mandate.referenceNumber).toBeTruthy();

    const ctx = await signedIn(browser, baseURL!, token, language, { viewport: { width: 1280, height: 800 }, acceptDownloads: true });
    const page = await ctx.newPage();
    await page.goto(`/Objects/View/${mandate.objectId}`);
    const first = await downloadMandate(page, say.language);
    expect(first.name).toMatch(say.file);
    expect(first.pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    // The fonts' glyphs are embedded (a subset of DejaVu Sans): tens of kilobytes, not megabytes.
    expect(first.pdf.length).toBeGreaterThan(20_000);
    expect(first.pdf.length).toBeLessThan(1_500_000);
    expect(first.text).toContain(say.title);
    // The first page as a picture (issue 47): rendered by poppler, attached to the report, and read
    // by OCR: the agency's name, the title, the owner and the reference drawn in real glyphs, not boxes.
    const pdfFile = testInfo.outputPath(`mandate-${say.culture}.pdf`);
    fs.writeFileSync(pdfFile, first.pdf);
    const png = await renderPage(pdfFile, testInfo.outputPath(`mandate-${say.culture}-page-1`));
    await testInfo.attach(`mandate page 1 (${language})`, { path: png, contentType: 'image/png' });
    const seen = await ocr(png);
    await testInfo.attach(`mandate page 1 as OCR read it (${language})`, { body: seen, contentType: 'text/plain' });
    expect(unread(seen, [agency, say.title, owner, mandate.referenceNumber]), `not read in the picture; OCR read:\n${seen}`).toEqual([]);
    // The check can fail: the other language's title is not on this page and is not read.
    const other = TEXTS[language === 'el' ? 'en-UK' : 'el'].title;
    expect(unread(seen, [other])).toEqual([other]);
    await expectAccessible(page, `document dialog ${language}`);
    await page.keyboard.press('Escape');

    // The settings: the exclusive mandate's title in this language, edited and saved.
    await page.goto('/Settings');
    await page.getByTestId('settings-doc-templates').click();
    await expect(page.getByTestId('doc-templates-page')).toBeVisible();
    await page.getByTestId('doc-template-language').getByText(say.language, { exact: true }).click();
    const editor = page.getByTestId('doc-template-editor');
    await expect(editor.getByTestId('doc-template-title')).toHaveValue(say.title);
    const title = `${say.title} ${unique().toUpperCase()}`;
    await editor.getByTestId('doc-template-title').fill(title);
    await editor.getByTestId('doc-template-save').click();
    await expect(editor.getByTestId('doc-template-edited')).toHaveText(say.edited);
    await expectAccessible(page, `document templates ${language}`);

    await page.goto(`/Objects/View/${mandate.objectId}`);
    const second = await downloadMandate(page, say.language);
    expect(second.text).toContain(title);
    await page.keyboard.press('Escape');

    // Back to the default texts, as the next run (and the other language's) expects them.
    await page.goto('/Settings/DocumentTemplates');
    await page.getByTestId('doc-template-language').getByText(say.language, { exact: true }).click();
    await page.getByTestId('doc-template-reset').click();
    await page.getByTestId('doc-template-reset-confirm').click();
    await expect(page.getByTestId('doc-template-default')).toHaveText(say.byDefault);
    await expect(page.getByTestId('doc-template-title')).toHaveValue(say.title);
    await ctx.close();
  });
}
