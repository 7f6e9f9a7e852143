import { expect, test, type Download } from '@playwright/test';
import { apiToken, expectAccessible, lastMailTo } from '../fixtures.ts';
import { closeMenuWithEscape } from '../pages/menu.ts';

/**
 * The client side of payments, on the payments host (127.0.0.1 here; the CRM is on localhost):
 * the owner invited by mail sets a password on the payments app's page, signs in and sees only
 * their own statement under the payments navbar; the expense sent for approval is approved (and
 * the approval reverted and given again) from the mailed link without signing in; the staff
 * statement shows the approval date. The CRM host keeps the CRM brand with the motto.
 */
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

for (const language of ['en-UK', 'el'] as const) {
  test(`an invited owner sees only their statement on the payments host and approves an expense from the mail (${language})`, async ({ browser, request, baseURL }) => {
    test.setTimeout(120_000);
    const el = language === 'el';
    const port = new URL(baseURL!).port;
    const payments = `http://127.0.0.1:${port}`;
    const token = await apiToken(request);
    const stamp = `${Date.now() % 1000000}${el ? 'g' : 'e'}`;
    const email = `owner.${stamp}@example.gr`;
    const owner = await request.post('/api/account/add', {
      data: { firstName: el ? 'Δήμητρα' : 'Dimitra', lastName: `${el ? 'Ζαχαρίου' : 'Zachariou'}${stamp}`, isOwner: true, hasTransactions: true, email, language: el ? 'el' : 'en' },
      headers: auth(token),
    });
    expect(owner.ok(), await owner.text()).toBeTruthy();
    const ownerId = ((await owner.json()) as { id: number }).id;
    const expense = await request.post('/api/transactions/addExpense', {
      multipart: {
        accountId: String(ownerId),
        amount: '345.60',
        transactionDate: '2026-03-05T09:30:00',
        paymentMethod: '1',
        categoryId: '22',
        status: '0',
        files: { name: 'plumber-invoice.pdf', mimeType: 'application/pdf', buffer: PDF },
      },
      headers: auth(token),
    });
    expect(expense.ok(), await expense.text()).toBeTruthy();
    const expenseId = ((await expense.json()) as { id: number }).id;

    // The CRM host: the CRM brand with the Greek motto.
    const crm = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await crm.addCookies([{ name: 'language', value: language, url: baseURL! }]);
    const crmPage = await crm.newPage();
    await crmPage.goto('/login');
    await expect(crmPage.getByTestId('login-logo')).toHaveAttribute('data-variant', 'crm');
    await expect(crmPage.getByTestId('login-logo')).toContainText('Το σπίτι σας');
    await crm.close();

    // Send email invitation (the staff call behind the statement's Administration menu).
    const invite = await request.get(`/api/transactions/sendInvitation/${ownerId}`, { headers: { ...auth(token), 'accept-language': language } });
    expect(invite.ok(), await invite.text()).toBeTruthy();
    expect(((await invite.json()) as { message: string }).message).toBe(el ? 'Η πρόσκληση στάλθηκε' : 'Invitation sent');
    // Mail goes through the job queue: wait for it in the outbox.
    await expect.poll(() => lastMailTo(email) ?? '', { timeout: 15_000 }).toContain('ResetPassword');
    const inviteMail = lastMailTo(email)!;
    expect(inviteMail).toContain(el ? 'Ανοίξτε τον παρακάτω σύνδεσμο' : 'Open the link below');
    const setLink = new RegExp(`${payments.replace(/\./g, '\\.')}/ResetPassword\\?code=[^\\s]+`).exec(inviteMail)![0];

    // The owner, on the payments host (a phone): sets a password, signs in, sees their statement only.
    const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, baseURL: payments });
    await ctx.addCookies([{ name: 'language', value: language, url: payments }]);
    const page = await ctx.newPage();
    await page.goto(setLink);
    await expect(page.getByTestId('login-logo')).toHaveAttribute('data-variant', 'payments');
    // An invitation: a first password, not a new one.
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(el ? 'Ορίστε τον κωδικό σας' : 'Choose your password');
    await page.getByTestId('reset-password').fill('owner-statement-42');
    await page.getByTestId('reset-confirm').fill('owner-statement-42');
    await page.getByTestId('reset-terms').check();
    await page.getByTestId('reset-submit').click();
    await expect(page.getByTestId('reset-success')).toHaveText(el ? 'Ο κωδικός σας ορίστηκε. Μπορείτε πλέον να συνδεθείτε με αυτόν.' : 'Your password is set. You can now sign in with it.');
    await page.goto('/login');
    await expect(page.getByTestId('login-logo')).not.toContainText('Το σπίτι σας');
    await page.getByTestId('login-email').fill(email);
    await page.getByTestId('login-password').fill('owner-statement-42');
    const asked: string[] = [];
    const order: string[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/transactions') order.push('ask');
    });
    page.on('requestfinished', (r) => {
      if (/\/statement-page-[\w-]+\.js$/.test(new URL(r.url()).pathname)) order.push('code');
    });
    page.on('response', (r) => {
      const u = new URL(r.url());
      if (u.pathname.startsWith('/api/')) asked.push(`${r.status()} ${u.pathname}`);
    });
    await page.getByTestId('login-submit').click();
    await expect(page).toHaveURL(new RegExp(`/Payments/View/${ownerId}$`));
    await expect(page.getByTestId('statement-balance')).toBeVisible();
    // The statement is asked for once (its route asks while the code loads; the screen finds it), and nothing is refused.
    expect(asked.filter((a) => a === '200 /api/transactions'), asked.join(', ')).toHaveLength(1);
    expect(asked.filter((a) => a.startsWith('403')), asked.join(', ')).toEqual([]);
    expect(order, order.join(' ')).toEqual(['ask', 'code']);
    await expect(page.getByTestId('brand')).toHaveText('Agency Payments');
    // On the phone the name and Logout sit in a user menu, read whole (not cut at the header's edge).
    await expect(page.getByTestId('user-menu')).toBeInViewport({ ratio: 1 });
    await page.getByTestId('user-menu').click();
    await expect(page.getByTestId('user-name')).toContainText(`${el ? 'Ζαχαρίου' : 'Zachariou'}${stamp}`);
    await expect(page.getByTestId('logout')).toBeInViewport({ ratio: 1 });
    await expect(page.getByTestId('logout')).toHaveText(el ? 'Αποσύνδεση' : 'Logout');
    await expectAccessible(page, 'client user menu');
    await closeMenuWithEscape(page);
    await expect(page.getByTestId('logout')).toBeHidden();
    await expect(page.getByTestId('statement-add-expense')).toHaveCount(0);
    // The download sits beside the title on the phone, not inside the folded filters.
    await expect(page.getByTestId('statement-download')).toBeInViewport();
    const [file] = await Promise.all([page.waitForEvent('download'), page.getByTestId('statement-download').click()]);
    expect(file.suggestedFilename()).toBe('Transactions.xlsx');
    // The receipt opens as the file itself, under its own name (not a copy at a random blob: address,
    // which a phone or the PDF viewer would save as "c22c1d4e-….pdf"). This browser downloads a PDF
    // it is asked to show; the download may come from the new tab or from the statement's.
    const receipt = new Promise<Download>((resolve) => {
      page.once('download', resolve);
      ctx.once('page', (p) => p.once('download', resolve));
    });
    await page.getByTestId('statement-attachment').filter({ hasText: 'plumber-invoice.pdf' }).click();
    const opened = await receipt;
    expect(opened.suggestedFilename()).toBe('plumber-invoice.pdf');
    expect(new URL(opened.url()).pathname).toMatch(/^\/api\/transactions\/files\/\d+\/plumber-invoice\.pdf$/);
    await expectAccessible(page, 'client statement');
    // Anything else of the CRM leads back to the own statement.
    await page.goto('/Owners');
    await expect(page).toHaveURL(new RegExp(`/Payments/View/${ownerId}$`));

    // Staff send the expense for approval; the owner approves it from the mail, signed out.
    const sent = await request.post(`/api/transactions/sendExpenseForApproval/${expenseId}`, { headers: { ...auth(token), 'accept-language': language } });
    expect(sent.ok(), await sent.text()).toBeTruthy();
    await expect.poll(() => lastMailTo(email) ?? '', { timeout: 15_000 }).toContain('ApproveExpense');
    const approvalLink = new RegExp(`${payments.replace(/\./g, '\\.')}/Payments/ApproveExpense/${expenseId}\\?token=[A-Za-z0-9_-]{43}`).exec(lastMailTo(email)!)![0];
    // Opened on a device whose reader never chose a language (its browser speaks the other one), the
    // approval page speaks the mail's language, the account's. A language chosen there stays chosen.
    const heading = { el: 'Παρακαλούμε ελέγξτε και εγκρίνετε τη δαπάνη', en: 'Please review and approve the expense' };
    const device = await browser.newContext({ locale: el ? 'en-US' : 'el-GR', viewport: { width: 390, height: 844 }, baseURL: payments });
    const visitor = await device.newPage();
    await visitor.goto(approvalLink);
    await expect(visitor.getByRole('heading', { level: 1 })).toHaveText(el ? heading.el : heading.en);
    await expect(visitor.getByTestId('approval-category')).toHaveText(el ? 'Ρεύμα' : 'Electricity');
    await visitor.getByTestId(el ? 'language-en-UK' : 'language-el').click();
    await expect(visitor.getByRole('heading', { level: 1 })).toHaveText(el ? heading.en : heading.el);
    await visitor.reload();
    await expect(visitor.getByRole('heading', { level: 1 })).toHaveText(el ? heading.en : heading.el);
    await expect(visitor.getByTestId('approval-category')).toHaveText(el ? 'Electricity' : 'Ρεύμα');
    await device.close();
    // Signed in, the owner answers it on the statement too, with the approval page's words: Approve,
    // then Revert approval while that is allowed; it then waits for the approval again (the mail's link below).
    await page.reload();
    const row = page.getByTestId('statement-table-row').filter({ hasText: 'plumber-invoice.pdf' });
    await expect(row.getByTestId('statement-awaiting')).toHaveText(el ? 'Αναμένει έγκριση' : 'Awaiting approval');
    await expect(row.getByTestId('statement-approve')).toHaveText(el ? 'Έγκριση' : 'Approve');
    await row.getByTestId('statement-approve').click();
    await expect(page.getByTestId('banner')).toContainText(el ? 'Η δαπάνη εγκρίθηκε.' : 'Expense approved.');
    await expect(row.getByTestId('statement-approved')).toBeVisible();
    await expect(row.getByTestId('statement-approve')).toHaveCount(0);
    await expectAccessible(page, 'client statement, approved');
    await row.getByTestId('statement-revert-approval').click();
    await expect(page.getByTestId('banner')).toContainText(el ? 'Η έγκριση ανακλήθηκε' : 'The approval has been reverted');
    await expect(row.getByTestId('statement-approve')).toBeVisible();
    await expect(row.getByTestId('statement-approved')).toHaveCount(0);
    // The agency corrects the owner's surname: the sign-in's name follows its account's (the menu, at the next start).
    const renamed = `${el ? 'Ζαχαρίου-Νίκα' : 'Zachariou-Nika'}${stamp}`;
    const { dto } = (await (await request.get(`/api/account/edit/${ownerId}`, { headers: auth(token) })).json()) as { dto: { version: number } };
    const rename = await request.post('/api/account/update', { data: { id: ownerId, version: dto.version, lastName: renamed }, headers: auth(token) });
    expect(rename.ok(), await rename.text()).toBeTruthy();
    await page.reload();
    await expect(page.getByTestId('statement-account')).toContainText(renamed);
    await page.getByTestId('user-menu').click();
    await expect(page.getByTestId('user-name')).toContainText(renamed);
    await closeMenuWithEscape(page);
    await page.getByTestId('user-menu').click();
    await page.getByTestId('logout').click();
    await page.goto(approvalLink);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(el ? 'Παρακαλούμε ελέγξτε και εγκρίνετε τη δαπάνη' : 'Please review and approve the expense');
    await expect(page.getByTestId('approval-amount')).toHaveText(/345,60\s€/);
    await expect(page.getByTestId('approval-category')).toHaveText(el ? 'Ρεύμα' : 'Electricity');
    await expect(page.getByTestId('approval-date')).toHaveText(/05[./]03[./]2026/);
    await expect(page.getByTestId('approval-file')).toHaveText('plumber-invoice.pdf');
    await expectAccessible(page, 'approval page');
    await page.getByTestId('approval-approve').click();
    await expect(page.getByTestId('approval-done')).toHaveText(el ? 'Η δαπάνη εγκρίθηκε. Μπορείτε να κλείσετε αυτό το παράθυρο.' : 'Expense has been approved. You can close this window.');
    await page.getByTestId('approval-revert').click();
    await expect(page.getByTestId('approval-approve')).toBeVisible();
    await page.getByTestId('approval-approve').click();
    await expect(page.getByTestId('approval-done')).toBeVisible();
    // The office pays it meanwhile: Revert, pressed on the page still open, is refused and goes.
    const form = (await (await request.get(`/api/transactions/editExpense/${expenseId}`, { headers: auth(token) })).json()) as {
      updateFields: Record<string, string | number | null>;
      attachments: { id: number }[];
    };
    const u = form.updateFields;
    const paid = await request.post('/api/transactions/editExpense', {
      multipart: {
        id: String(expenseId),
        version: String(u.version),
        amount: String(u.amount),
        transactionDate: String(u.transactionDate),
        paymentMethod: String(u.paymentMethod),
        categoryId: String(u.categoryId),
        status: '1',
        paymentDate: '2026-03-10',
        attachments: JSON.stringify(form.attachments.map((a) => ({ id: a.id, state: 1 }))),
      },
      headers: auth(token),
    });
    expect(paid.ok(), await paid.text()).toBeTruthy();
    await page.getByTestId('approval-revert').click();
    await expect(page.getByTestId('approval-error')).toBeVisible();
    await expect(page.getByTestId('approval-revert')).toHaveCount(0);
    await ctx.close();

    // The staff statement shows the approval date.
    const st = (await (await request.get(`/api/transactions?accountId=${ownerId}`, { headers: auth(token) })).json()) as { items: { id: number; confirmedByClientDate: string | null }[] };
    expect(st.items.find((i) => i.id === expenseId)!.confirmedByClientDate).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
  });
}
