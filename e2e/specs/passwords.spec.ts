import { expect, test, type APIRequestContext } from '@playwright/test';
import { apiToken, expectAccessible, lastMailTo, openAs, signIn } from '../fixtures.ts';

/**
 * Passwords of the staff themselves: an employee changes the own password from the user menu, and
 * an office admin invites a new employee to choose one. The suite's admin is shared by parallel
 * tests, so its password is never changed here: each test makes an employee of its own.
 */
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const unique = (s: string) => `${s}${Date.now()}${Math.floor(Math.random() * 1000)}`;

async function addEmployee(request: APIRequestContext, token: string, email: string): Promise<number> {
  const res = await request.post('/api/account/add', { headers: auth(token), data: { lastName: unique('Παπαδόπουλος'), firstName: 'Γιώργος', isEmploye: true, role: 'employee', email } });
  expect(res.ok(), await res.text()).toBeTruthy();
  return (await res.json()).id as number;
}

test.describe('κωδικοί πρόσβασης', () => {
  test('ένας υπάλληλος αλλάζει τον κωδικό του από το μενού χρήστη· με λάθος τρέχοντα κωδικό δεν χάνει ό,τι πληκτρολόγησε', async ({ browser, request, baseURL }) => {
    const admin = await apiToken(request);
    const email = `${unique('change')}@example.com`;
    await addEmployee(request, admin, email);
    const pw = await request.post('/api/authenticate/setPassword', { headers: auth(admin), data: { email, password: 'staff-pass-12' } });
    expect(pw.ok(), await pw.text()).toBeTruthy();

    const context = await browser.newContext();
    await context.addCookies([{ name: 'language', value: 'el', url: baseURL! }]);
    const page = await context.newPage();
    await signIn(page, email, 'staff-pass-12');
    await page.getByTestId('user-menu').click();
    await page.getByTestId('change-password').click();
    const dialog = page.getByRole('dialog', { name: 'Αλλαγή κωδικού πρόσβασης' });
    await expect(dialog).toBeVisible();
    await expectAccessible(page, 'the change-password dialog');

    await dialog.getByLabel('Τρέχων κωδικός πρόσβασης').fill('not-my-password');
    await dialog.getByLabel('Νέος κωδικός πρόσβασης').fill('quiet harbour lamp');
    await dialog.getByLabel('Επιβεβαίωση κωδικού').fill('quiet harbour lamp');
    await page.getByTestId('change-password-submit').click();
    await expect(dialog.getByText('Ο τρέχων κωδικός πρόσβασης δεν είναι σωστός')).toBeVisible();
    await expect(page.getByTestId('change-password-new')).toHaveValue('quiet harbour lamp');
    await expect(page.getByTestId('change-password-confirm')).toHaveValue('quiet harbour lamp');
    await expect(page.getByTestId('change-password-current')).toHaveValue('not-my-password');

    await page.getByTestId('change-password-current').fill('staff-pass-12');
    await page.getByTestId('change-password-submit').click();
    await expect(page.getByTestId('banner')).toContainText('Ο κωδικός πρόσβασής σας άλλαξε.');
    await expect(dialog).toHaveCount(0);

    // The new password is the one that signs in now.
    await page.getByTestId('user-menu').click();
    await page.getByTestId('logout').click();
    await expect(page).toHaveURL(/\/(login)?$/);
    expect((await request.post('/api/authenticate/login', { data: { username: email, password: 'staff-pass-12' } })).status()).toBe(401);
    await signIn(page, email, 'quiet harbour lamp');
    await context.close();
  });

  test('ο διαχειριστής στέλνει πρόσκληση σε νέο υπάλληλο, που ορίζει μόνος του τον κωδικό του και συνδέεται', async ({ browser, request, baseURL }) => {
    const email = `${unique('invite')}@example.com`;
    const context = await browser.newContext();
    const { page, token } = await openAs(context, request, baseURL!, 'el');
    const id = await addEmployee(request, token, email);
    await page.goto(`/Accounts/View/${id}`);
    await page.getByTestId('send-invitation').click();
    await expect(page.getByTestId('banner')).toContainText(`Η πρόσκληση στάλθηκε στο ${email}`);
    await expectAccessible(page, 'an employee with its invitation sent');

    await expect.poll(() => lastMailTo(email) ?? '', { timeout: 15_000 }).toContain('ResetPassword');
    const link = /https?:\/\/\S+\/ResetPassword\?code=\S+&email=\S+/.exec(lastMailTo(email)!)![0];
    const invited = await browser.newContext();
    await invited.addCookies([{ name: 'language', value: 'el', url: baseURL! }]);
    const own = await invited.newPage();
    await own.goto(link.replace(/^https?:\/\/[^/]+/, baseURL!));
    await own.getByTestId('reset-password').fill('my own choice 7');
    await own.getByTestId('reset-confirm').fill('my own choice 7');
    await own.getByTestId('reset-terms').check();
    await own.getByTestId('reset-submit').click();
    await expect(own.getByTestId('reset-success')).toBeVisible();
    await signIn(own, email, 'my own choice 7');
    const me = await (await request.get('/api/authenticate/me', { headers: auth(await apiToken(request, email, 'my own choice 7')) })).json();
    expect(me).toMatchObject({ userroles: ['employee'], accountId: id });
    await invited.close();
    await context.close();
  });
});
