import fs from 'node:fs';
import { test } from '@playwright/test';
import { apiToken, signedIn, createObject } from '../fixtures.ts';
test('probe', async ({ browser, request, baseURL }) => {
  test.setTimeout(300_000);
  const token = await apiToken(request);
  const o = await createObject(request, token, { title: 'Probe', forSale: true, salePrice: 100000 });
  for (const url of [`/Objects/View/${o.id}/1`, `/Objects/View/${o.id}`]) {
    const ctx = await signedIn(browser, baseURL!, token, 'el');
    const page = await ctx.newPage();
    await page.goto('/CRM'); await page.waitForLoadState('networkidle');
    const cdp = await ctx.newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
    await page.goto(url);
    await page.waitForLoadState('networkidle');
    await page.waitForTimeout(500);
    const { profile } = await cdp.send('Profiler.stop');
    fs.writeFileSync(`/tmp/profsrc-${url.includes('/1') ? 'objedit' : 'objview'}.json`, JSON.stringify(profile));
    await ctx.close();
  }
});
