import { expect, test } from '@playwright/test';
import { ADMIN } from '../playwright.config.ts';
import { startFreshOffice } from '../fresh-office.ts';
import { expectAccessible } from '../fixtures.ts';
import { SignInPage } from '../pages/sign-in.ts';

/**
 * The agency's own face from the first start (issue 45): a fresh install without the demo opens the
 * set-up on the first administrator's first sign-in; until it is done a banner says what is missing;
 * once the details are saved the public site carries the agency's name in the reader's letters. Each
 * language runs on a server of its own (the suite's holds the demo, whose set-up is done).
 */


const WORDS = {
  el: {
    cookie: 'el',
    title: 'Τα στοιχεία του γραφείου σας',
    missing: 'Τα στοιχεία του γραφείου δεν είναι πλήρη',
    open: 'Ολοκλήρωση ρύθμισης',
    nameEl: 'Επωνυμία στα ελληνικά',
    name: 'Επωνυμία γραφείου',
    phone: 'Τηλέφωνο',
    website: 'Ιστοσελίδα',
    taxNumber: 'ΑΦΜ',
    taxOffice: 'ΔΟΥ',
    publicUrl: 'Δημόσια διεύθυνση του CRM',
    badWebsite: 'Γράψτε τη διεύθυνση της ιστοσελίδας όπως ανοίγει, π.χ. www.grafeio.gr',
    save: 'Αποθήκευση και ολοκλήρωση',
    taxLine: 'ΑΦΜ: 094712341, ΔΟΥ: Δ΄ Θεσσαλονίκης',
  },
  en: {
    cookie: 'en-UK',
    title: "Your agency's details",
    missing: "The agency's details are not complete",
    open: 'Complete the set-up',
    nameEl: 'Name in Greek',
    name: 'Agency name',
    phone: 'Phone',
    website: 'Web address',
    taxNumber: 'Tax number (AFM)',
    taxOffice: 'Tax office (DOY)',
    publicUrl: 'Public address of the CRM',
    badWebsite: 'Write the web address as it is opened, e.g. www.agency.gr',
    save: 'Save and finish',
    taxLine: 'VAT no.: 094712341, Tax office: Δ΄ Θεσσαλονίκης',
  },
} as const;

for (const lang of ['el', 'en'] as const) {
  const w = WORDS[lang];
  test(`a fresh install's first sign-in sets up the agency, and its public site carries the name (${lang})`, async ({ browser }) => {
    test.setTimeout(240_000);
    const office = await startFreshOffice(`agency-setup-${lang}`);
    try {
      const ctx = await browser.newContext({ baseURL: office.baseURL, viewport: { width: 1366, height: 768 } });
      await ctx.addCookies([{ name: 'language', value: w.cookie, url: office.baseURL }]);
      const page = await ctx.newPage();

      // The first sign-in lands on the set-up, not on the home screen.
      const signIn = new SignInPage(page);
      await signIn.open();
      await signIn.signIn(ADMIN.email, ADMIN.password, /\/Settings\/Setup$/);
      await expect(page.getByRole('heading', { name: w.title })).toBeVisible();
      await expectAccessible(page, `agency set-up (${lang})`);

      // Elsewhere, until it is done, the banner says what is missing and leads back to it.
      await page.goto('/Objects');
      const banner = page.getByTestId('setup-banner');
      await expect(banner).toContainText(w.missing);
      await expectAccessible(page, `set-up banner (${lang})`);
      await banner.getByRole('link', { name: w.open }).click();
      await expect(page).toHaveURL(/\/Settings\/Setup$/);

      // A web address no one could open is refused under its box; then the details are saved.
      const card = page.getByTestId('settings-site');
      await card.getByLabel(w.nameEl).fill('Θερμαϊκός Ακίνητα');
      await card.getByLabel(w.name, { exact: true }).fill('Thermaikos Homes');
      await card.getByLabel(w.phone).fill('+30 2310 254 870');
      await card.getByLabel(w.website).fill('thermaikos homes');
      await card.getByLabel(w.taxNumber, { exact: true }).fill('094712341');
      await card.getByLabel(w.taxOffice, { exact: true }).fill('Δ΄ Θεσσαλονίκης');
      await card.getByRole('button', { name: w.save }).click();
      await expect(card.getByText(w.badWebsite)).toBeVisible();
      await expect(page).toHaveURL(/\/Settings\/Setup$/);
      await card.getByLabel(w.website).fill('www.thermaikos-homes.gr');
      await card.getByRole('button', { name: w.save }).click();
      await expect(page).toHaveURL(/\/CRM$/);
      await expect(page.getByTestId('setup-banner')).toHaveCount(0);

      // The public site, in Greek and in English: the name in the reader's letters, the numbers in the footer.
      const visitor = await browser.newContext({ baseURL: office.baseURL });
      const site = await visitor.newPage();
      await site.goto('/listings?lang=el');
      await expect(site).toHaveTitle(/Θερμαϊκός Ακίνητα$/);
      await expect(site.locator('header.site .brand')).toHaveText('Θερμαϊκός Ακίνητα');
      await expect(site.locator('footer')).toContainText('Θερμαϊκός Ακίνητα');
      await expect(site.locator('footer')).toContainText(WORDS.el.taxLine);
      await site.goto('/listings?lang=en');
      await expect(site).toHaveTitle(/Thermaikos Homes$/);
      await expect(site.locator('footer')).toContainText(WORDS.en.taxLine);
      await expect(site.locator('body')).not.toContainText('admin');
      await visitor.close();
      await ctx.close();
    } finally {
      await office.stop();
    }
  });
}
