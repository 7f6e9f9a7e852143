import { expect, test } from '@playwright/test';
import { expectAccessible, openAsAdmin, openAsAgent } from '../fixtures.ts';
import { ListPage } from '../pages/list.ts';

/**
 * What only an office admin may do is not offered to an agent: no Add on the employees' and the
 * payments' lists, no Settings in the menu, and the settings' address says access is denied. The
 * lists themselves stay open to them.
 */
const TEXTS = {
  'en-UK': { addEmployee: 'Add employee', addPayments: 'New payments account', denied: 'Access denied', employees: 'Employees' },
  el: { addEmployee: 'Νέος υπάλληλος', addPayments: 'Νέα επαφή πληρωμών', denied: 'Δεν επιτρέπεται η πρόσβαση', employees: 'Υπάλληλοι' },
} as const;

for (const language of ['en-UK', 'el'] as const) {
  test(`an agent sees the lists without the admin's Add buttons and Settings (${language})`, async ({ browser, request, baseURL }) => {
    const L = TEXTS[language];
    // The admin, for comparison: the same screens offer both Adds and Settings.
    const admin = await openAsAdmin(browser, request, baseURL!, language, '/Employes');
    await expect(admin.page.getByTestId('employes-add')).toHaveText(L.addEmployee);
    await expect(admin.page.getByTestId('menu-nav.settings')).toBeVisible();
    await admin.page.goto('/Payments');
    await expect(admin.page.getByTestId('payments-add-account')).toHaveText(L.addPayments);
    await admin.page.goto('/Settings');
    await expect(admin.page.getByTestId('settings-site')).toBeVisible();
    await admin.ctx.close();

    const { ctx, page } = await openAsAgent(browser, request, baseURL!, language, '/Employes');
    const employees = new ListPage(page, 'employes', '/Employes');
    // The list is drawn (its header holds the Add it would have had), with its title in the language.
    await expect(employees.table).toBeVisible();
    await expect(employees.count).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(L.employees);
    await expect(page.getByTestId('employes-add')).toHaveCount(0);
    await expect(page.getByRole('link', { name: L.addEmployee })).toHaveCount(0);
    // The menu is drawn with the agent's entries, and without Settings.
    await expect(page.getByTestId('menu-nav.deals')).toBeVisible();
    await expect(page.getByTestId('menu-nav.settings')).toHaveCount(0);
    await expectAccessible(page, `employees as an agent (${language})`);

    const payments = new ListPage(page, 'payments', '/Payments');
    await payments.open();
    await expect(payments.count).toBeVisible();
    await expect(page.getByTestId('payments-add-account')).toHaveCount(0);
    await expect(page.getByRole('link', { name: L.addPayments })).toHaveCount(0);
    await expectAccessible(page, `payments as an agent (${language})`);

    // The address typed in: the screen says so and shows nothing of the settings.
    await page.goto('/Settings');
    await expect(page.getByTestId('access-denied')).toHaveText(L.denied);
    await expect(page.getByTestId('settings-site')).toHaveCount(0);
    await expect(page.getByTestId('settings-password')).toHaveCount(0);
    await expectAccessible(page, `settings denied to an agent (${language})`);
    await ctx.close();
  });
}
