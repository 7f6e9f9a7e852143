import { expect, test } from '@playwright/test';
import { apiToken, auth, createObject, signedIn } from '../fixtures.ts';

/**
 * Save pressed again right after the first save's answer, while the next screen is still on its way
 * (a double click on a loaded machine, Save pressed again on a slow phone): the form is enabled
 * again by then, and the second click must not store a second record. The kit keeps the change's
 * key until the form is left, so the server answers the second as the first (idempotent requests).
 */
for (const language of ['el', 'en-UK']) {
  test(`a new key saved twice in a row is stored once (${language})`, async ({ browser, request, baseURL }) => {
    const token = await apiToken(request);
    const object = await createObject(request, token, { title: `Twice ${language}` });
    const ctx = await signedIn(browser, baseURL!, token, language);
    const page = await ctx.newPage();
    await page.goto(`/ObjectKeys/new?objectId=${object.id}`);
    await expect(page.getByTestId('key-object')).toContainText(`#${object.referenceNumber}`);
    await page.getByTestId('key-description').fill(`Saved twice ${language}`);
    // As soon as the first save's answer is in, Save is clicked again once it is enabled (or gone).
    await page.evaluate(() => {
      const w = window as unknown as { second: string };
      w.second = 'waiting';
      const original = window.fetch;
      window.fetch = async (...args: Parameters<typeof fetch>) => {
        const answer = await original(...args);
        const url = String(args[0] instanceof Request ? args[0].url : args[0]);
        if (url.includes('/api/ObjectKeys/edit') && w.second === 'waiting') {
          w.second = 'watching';
          const tick = () => {
            const save = document.querySelector<HTMLButtonElement>('[data-testid="key-save"]');
            if (!save) w.second = 'the form was gone';
            else if (save.disabled) requestAnimationFrame(tick);
            else {
              w.second = 'clicked';
              save.click();
            }
          };
          setTimeout(tick, 0);
        }
        return answer;
      };
    });
    await page.getByTestId('key-save').click();
    await expect.poll(() => page.evaluate(() => (window as unknown as { second: string }).second)).toMatch(/clicked|gone/);
    await expect(page).toHaveURL(new RegExp(`/Objects/View/${object.id}$`));
    const keys = await request.get('/api/ObjectKeys', { params: { referenceNumber: object.referenceNumber, perPage: 50 }, headers: auth(token) });
    const items = ((await keys.json()) as { items: { objectReferenceNumber: string }[] }).items.filter((k) => k.objectReferenceNumber === object.referenceNumber);
    expect(items).toHaveLength(1);
    await ctx.close();
  });
}
