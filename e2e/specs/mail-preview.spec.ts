import { expect, test } from '@playwright/test';
import { expectAccessible, openAs } from '../fixtures.ts';

/** The settings' preview of each mail, in each language, before it is ever sent. */
const LANGUAGES = [
  { cookie: 'en-UK', title: 'Mail to clients', russian: 'Русский' },
  { cookie: 'el', title: 'Μηνύματα προς πελάτες', russian: 'Русский' },
];

for (const L of LANGUAGES) {
  test(`the settings show a mail as it is sent, in the language picked (${L.cookie})`, async ({ context, request, baseURL }) => {
    const { page } = await openAs(context, request, baseURL!, L.cookie);
    await page.goto('/Settings');
    const card = page.getByTestId('mail-preview-card');
    await expect(card.getByRole('heading', { name: L.title })).toBeVisible();
    // A shortlist in Greek by default: greeted in the vocative, no "Αγαπητέ/ή".
    await expect(page.getByTestId('mail-preview-text')).toContainText('Αγαπητέ Γιώργο,');
    await expect(page.getByTestId('mail-preview-text')).not.toContainText('Αγαπητέ/ή');
    // The HTML part in a frame that runs no script.
    const frame = page.getByTestId('mail-preview-html');
    await expect(frame).toHaveAttribute('sandbox', '');
    await expect(page.frameLocator('[data-testid="mail-preview-html"]').getByText('Αγαπητέ Γιώργο,')).toBeVisible();
    await expectAccessible(page, 'settings with the mail preview');
    // In Russian: first name and patronymic.
    await card.getByText(L.russian).click();
    await expect(page.getByTestId('mail-preview-text')).toContainText('Уважаемый Иван Петрович!');
    await expect(page.getByTestId('mail-preview-subject')).toHaveText('Подборка объектов для вас');
  });
}
