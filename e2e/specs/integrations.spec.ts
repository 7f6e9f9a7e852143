import { expect, test } from '@playwright/test';
import { expectAccessible, openAs } from '../fixtures.ts';

/**
 * API keys and webhooks (issue 48, decision 080): an office admin makes a key on the settings screen,
 * copies it from the dialog that shows it once, calls the API with it (within its access and not
 * beyond), and revokes it; then registers a webhook and sees its secret once and its empty log. At
 * an office laptop's width and on a phone.
 */
const LANGUAGES = [
  { cookie: 'en-UK', read: 'Read', revoked: 'Revoked', on: 'On', accounts: 'Accounts', leadCreated: 'Lead: created', fromPortal: 'Lead: from a portal enquiry', nothingSent: 'Nothing sent yet.' },
  { cookie: 'el', read: 'Ανάγνωση', revoked: 'Ανακλήθηκε', on: 'Ενεργό', accounts: 'Επαφές', leadCreated: 'Ενδιαφέρον: δημιουργία', fromPortal: 'Ενδιαφέρον: από αίτημα πύλης ακινήτων', nothingSent: 'Δεν έχει σταλεί τίποτα ακόμη.' },
];

for (const L of LANGUAGES) {
  test(`an admin makes an API key, uses it within its access, revokes it, and registers a webhook (${L.cookie})`, async ({ context, request, baseURL }) => {
    const { page } = await openAs(context, request, baseURL!, L.cookie);
    await page.setViewportSize({ width: 1280, height: 800 });
    const name = `Λογιστής ${L.cookie} ${Date.now()}`;
    await page.goto('/Settings');
    await page.getByTestId('settings-api-keys').click();
    await expect(page).toHaveURL(/\/Settings\/ApiKeys$/);
    await page.getByTestId('api-key-new').click();
    const form = page.getByRole('dialog');
    await form.getByTestId('api-key-name').fill(name);
    await form.getByTestId('api-key-scope-accounts').getByText(L.read, { exact: true }).click();
    await expectAccessible(page, 'the new API key dialog');
    await form.getByTestId('api-key-create').click();

    // Shown once, to copy.
    const secret = (await page.getByTestId('api-key-secret-value').textContent())!.trim();
    expect(secret).toMatch(/^crm_[0-9a-f]{64}$/);
    await expect(page.getByTestId('api-key-secret-copy')).toBeVisible();
    await expectAccessible(page, 'the new API key, shown once');
    await page.getByTestId('api-key-secret-done').click();
    const row = page.getByTestId('api-keys-table-row').filter({ hasText: name });
    await expect(row.getByTestId('api-key-scopes')).toHaveText(`${L.accounts}: ${L.read}`);
    await expect(page.getByTestId('api-keys-table')).not.toContainText(secret);

    // The key reads the accounts, and nothing else.
    const bearer = { authorization: `Bearer ${secret}` };
    expect((await request.get('/api/account?perPage=5&currentPage=1', { headers: bearer })).status()).toBe(200);
    expect((await request.post('/api/lead/search', { headers: bearer, data: {} })).status()).toBe(403);

    await row.getByTestId('api-key-revoke').click();
    await page.getByTestId('api-key-revoke-confirm').click();
    await expect(row).toContainText(L.revoked);
    expect((await request.get('/api/account?perPage=5&currentPage=1', { headers: bearer })).status()).toBe(401);
    await expectAccessible(page, 'the API keys');

    // A webhook: its secret once, then its (empty) delivery log.
    await page.goto('/Settings');
    await page.getByTestId('settings-webhooks').click();
    await expect(page).toHaveURL(/\/Settings\/Webhooks$/);
    const url = `https://hooks.example.com/crm/${L.cookie}-${Date.now()}`;
    await page.getByTestId('webhook-new').click();
    await page.getByTestId('webhook-url').fill(url);
    await page.getByTestId('webhook-event-lead.created').check();
    // Besides the changes: a lead from a portal's enquiry (and a property's mandate ending).
    await expect(page.getByTestId('webhook-event-property.mandateEnding')).toBeVisible();
    await page.getByLabel(L.fromPortal).check();
    await expectAccessible(page, 'the new webhook dialog');
    await page.getByTestId('webhook-create').click();
    await expect(page.getByTestId('webhook-secret-value')).toHaveText(/^whsec_[A-Za-z0-9_-]{43}$/);
    await page.getByTestId('webhook-secret-done').click();
    const hook = page.getByTestId('webhooks-table-row').filter({ hasText: url });
    await expect(hook).toContainText(L.leadCreated);
    await expect(hook).toContainText(L.fromPortal);
    await expect(hook.getByTestId('webhook-state')).toHaveText(L.on);
    await hook.getByTestId('webhook-log').click();
    await expect(page.getByTestId('deliveries-table-empty')).toHaveText(L.nothingSent);
    await expectAccessible(page, 'a webhook’s delivery log');
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);

    // On a phone: the same lists as cards, their actions within reach.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(hook.getByTestId('webhook-log')).toBeVisible();
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await expectAccessible(page, 'the webhooks on a phone');
    await page.goto('/Settings/ApiKeys');
    await expect(page.getByTestId('api-keys-table-row').filter({ hasText: name })).toContainText(L.revoked);
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await expectAccessible(page, 'the API keys on a phone');
  });
}
