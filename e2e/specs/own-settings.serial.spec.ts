import { expect, test } from '@playwright/test';
import { ADMIN, apiToken, lastMailTo, signIn } from '../fixtures.ts';

// These change the admin's own settings (language, password), which the other specs rely on:
// they run after them (project "serial"), one at a time.
test.describe.configure({ mode: 'serial' });

test.describe('the admin\'s own settings', () => {
  test('switching to Greek changes the menus at once, and the choice is kept for the user', async ({ page, context }) => {
    await signIn(page);
    await page.getByTestId('language-menu').click();
    await page.getByTestId('language-el').click();
    await expect(page.getByTestId('page-title')).toHaveText('Αρχική');
    await page.getByTestId('menu-nav.accounts').hover();
    await expect(page.getByRole('menuitem', { name: 'Ιδιοκτήτες' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Υποδείξεις' })).toBeVisible();
    const cookies = await context.cookies();
    expect(cookies.find((c) => c.name === 'language')?.value).toBe('el');
    // a new browser without the cookie gets Greek back at the next sign-in
    await context.clearCookies();
    await page.evaluate(() => localStorage.clear());
    await signIn(page);
    await expect(page.getByTestId('page-title')).toHaveText('Αρχική');
    // back to English for the other tests of this user
    await page.getByTestId('language-menu').click();
    await page.getByTestId('language-en-UK').click();
    await expect(page.getByTestId('page-title')).toHaveText('Home');
  });

})

test.describe('passwords', () => {
  test('forgot password e-mails a link that sets a new password', async ({ page, request }) => {
    // runs after the other specs (its own project): it changes the admin's password and ends its sessions
    const email = ADMIN.email;
    const before = lastMailTo(email);
    await page.goto('/ForgotPassword');
    await page.getByTestId('forgot-email').fill(email);
    await page.getByTestId('forgot-submit').click();
    await expect(page.getByTestId('forgot-sent')).toBeVisible();
    // The answer leaves before the mail is written (same answer for known and unknown addresses).
    await expect.poll(() => lastMailTo(email) !== before, { timeout: 10000 }).toBe(true);
    const mail = lastMailTo(email);
    const link = /(https?:\/\/\S+\/ResetPassword\?code=\S+&email=\S+)/.exec(mail ?? '')?.[1];
    expect(link).toBeTruthy();
    await page.goto(new URL(link!).pathname + new URL(link!).search);
    await page.getByTestId('reset-password').fill('temporary-pass-1');
    await page.getByTestId('reset-confirm').fill('temporary-pass-2');
    await expect(page.getByTestId('reset-submit')).toBeDisabled();
    await page.getByTestId('reset-terms').check();
    await page.getByTestId('reset-submit').click();
    await expect(page.getByText('Passwords should match')).toBeVisible();
    await page.getByTestId('reset-confirm').fill('temporary-pass-1');
    await page.getByTestId('reset-submit').click();
    await expect(page.getByTestId('reset-success')).toBeVisible();
    await signIn(page, email, 'temporary-pass-1');
    // put the admin password back for the other tests
    const token = await apiToken(request, email, 'temporary-pass-1');
    const res = await request.post('/api/authenticate/setPassword', { headers: { authorization: `Bearer ${token}` }, data: { email, password: ADMIN.password } });
    expect(res.ok()).toBeTruthy();
  });
});
