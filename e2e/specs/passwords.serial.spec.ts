import { expect, test } from '@playwright/test';
import { ADMIN, apiToken, lastMailTo, signIn } from '../fixtures.ts';

test.describe('passwords', () => {
  test('forgot password e-mails a link that sets a new password', async ({ page, request }) => {
    // runs after the other specs (its own project): it changes the admin's password and ends its sessions
    const email = ADMIN.email;
    await page.goto('/ForgotPassword');
    await page.getByTestId('forgot-email').fill(email);
    await page.getByTestId('forgot-submit').click();
    await expect(page.getByTestId('forgot-sent')).toBeVisible();
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
