import { expect, test, type Browser } from '@playwright/test';
import { expectAccessible } from '../fixtures.ts';

/**
 * Accessibility (WCAG 2.2 AA): axe on every screen, in English and in Greek, at desktop and at
 * phone size; any violation fails.
 */
const SIZES = [
  { name: 'desktop', viewport: { width: 1280, height: 800 }, isMobile: false },
  { name: 'phone', viewport: { width: 390, height: 844 }, isMobile: true },
] as const;
const LANGUAGES = ['en-UK', 'el'] as const;

async function context(browser: Browser, baseURL: string, size: (typeof SIZES)[number], language: string) {
  const ctx = await browser.newContext({ viewport: size.viewport, isMobile: size.isMobile, hasTouch: size.isMobile });
  await ctx.addCookies([{ name: 'language', value: language, url: baseURL }]);
  return ctx;
}

for (const size of SIZES) {
  for (const language of LANGUAGES) {
    test(`signed-out screens pass axe (${size.name}, ${language})`, async ({ browser, baseURL }) => {
      const ctx = await context(browser, baseURL!, size, language);
      const page = await ctx.newPage();
      for (const path of ['/login', '/ForgotPassword', '/ResetPassword?code=abc&email=someone%40example.com']) {
        await page.goto(path);
        await expect.soft(page.locator('h1')).toHaveCount(1);
        await expectAccessible(page, `${path} ${size.name} ${language}`);
      }
      await ctx.close();
    });
  }
}
