import { chromium } from 'playwright-core';
const base = 'http://localhost:3330';
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
await ctx.addCookies([{ name: 'language', value: process.env.LANG_C ?? 'el', url: base }]);
const page = await ctx.newPage();
page.on('console', (m) => { if (m.type() === 'error') console.log('console:', m.text()); });
await page.goto(base + '/login');
await page.getByTestId('login-email').fill('admin@example.com');
await page.getByTestId('login-password').fill('admin-pass-123');
await page.getByTestId('login-submit').click();
await page.waitForURL('**/CRM');
await page.waitForTimeout(1500);
await page.screenshot({ path: '/tmp/v-home.png' });
for (const [p, f] of [['/Clients', 'clients'], ['/Owners', 'owners'], ['/Professionals', 'spec']]) {
  await page.goto(base + p); await page.waitForTimeout(1500); await page.screenshot({ path: `/tmp/v-${f}.png` });
}
await page.goto(base + '/Clients'); await page.waitForTimeout(1200);
const link = page.locator('table a[href^="/Accounts/View/"]').first();
await link.click(); await page.waitForTimeout(2000);
await page.screenshot({ path: '/tmp/v-view.png', fullPage: true });
const url = page.url();
await page.goto(url.replace(/\/View\/(\d+).*/, '/View/$1/2')); await page.waitForTimeout(2000);
await page.screenshot({ path: '/tmp/v-edit.png', fullPage: true });
await browser.close();
