import { expect, test, type APIRequestContext } from '@playwright/test';
import { expectAccessible, openAs, patchField } from '../fixtures.ts';

/**
 * The property portals (issue 48, decision 083): an office admin sets up two channels in the
 * settings (Spitogatos with the agency's ID there, and Kyero); a demo flat without an energy class
 * is published; its publishing card shows Kyero taking it and Spitogatos refusing it, naming the
 * energy class; the class is filled in on the property's form, and both portals take it, in their
 * feeds as the portals fetch them; Kyero then reports it refused the flat, and the card and the
 * settings say so (decision 091).
 */
const LANGUAGES = [
  { cookie: 'en-UK', n: 0, energy: 'C', missing: 'Missing: the energy class (the law requires it in every advertisement)', ready: 'Ready', inFeed: 'In the feed' },
  { cookie: 'el', n: 1, energy: 'Γ', missing: 'Λείπει: η ενεργειακή κλάση (ο νόμος την απαιτεί σε κάθε αγγελία)', ready: 'Έτοιμο', inFeed: 'Στη ροή' },
] as const;

type Status = { channelId: number; included: boolean; missing: string[] };
const auth = (token: string) => ({ authorization: `Bearer ${token}` });

/**
 * The n-th demo flat (newest first) not asked to be published, with photos, that both channels would
 * take as it is: each language its own, apart from the ones other specs publish (oldest first).
 */
async function demoFlat(request: APIRequestContext, token: string, n: number, channels: number[]) {
  const list = await request.post('/api/object', { data: { perPage: 200, currentPage: 1, sortBy: 'referenceNumber', sortDir: 'desc' }, headers: auth(token) });
  expect(list.ok(), await list.text()).toBeTruthy();
  const { items } = (await list.json()) as { items: { id: number; referenceNumber: string }[] };
  let seen = 0;
  for (const row of items) {
    const o = ((await (await request.get(`/api/object/edit/${row.id}`, { headers: auth(token) })).json()) as { object: Record<string, unknown> }).object;
    if (o.active !== true || o.publishRequested === true || o.published === true || o.objectSubTypeId !== 1 || o.energyClass === null || !(o.images as unknown[]).length) continue;
    const status = ((await (await request.get(`/api/object/portals/${row.id}`, { headers: auth(token) })).json()) as { items: Status[] }).items;
    if (channels.every((c) => status.find((s) => s.channelId === c)?.missing.length === 0) && seen++ === n) return { id: row.id, ref: row.referenceNumber };
  }
  throw new Error('no demo flat both portals take');
}

for (const L of LANGUAGES) {
  test(`publish a demo flat to two portals: one refuses it for the energy class, then both take it (${L.cookie})`, async ({ context, request, baseURL }) => {
    test.setTimeout(120_000);
    const { page, token } = await openAs(context, request, baseURL!, L.cookie);
    await page.setViewportSize({ width: 1280, height: 900 });
    const stamp = `${L.cookie} ${Date.now()}`;

    // Two channels, set up in the settings.
    await page.goto('/Settings');
    const card = page.getByTestId('portal-channels');
    for (const c of [{ kind: 'spitogatos', label: L.cookie === 'el' ? 'Spitogatos (Σπιτογάτος)' : 'Spitogatos', agency: 'SG-1042' }, { kind: 'kyero', label: L.cookie === 'el' ? 'Kyero (αγοραστές από το εξωτερικό)' : 'Kyero (international buyers)', agency: '' }]) {
      await card.getByTestId('portal-add').click();
      const form = page.getByRole('dialog');
      await form.getByTestId('portal-kind').click();
      await page.getByRole('option', { name: c.label, exact: true }).click();
      await form.getByTestId('portal-name').fill(`${c.kind} ${stamp}`);
      if (c.agency) await form.getByTestId('portal-agency-id').fill(c.agency);
      if (c.kind === 'spitogatos') await expectAccessible(page, 'the new portal channel dialog');
      await form.getByTestId('portal-save').click();
      await expect(page.getByRole('dialog')).toHaveCount(0);
      await expect(card.getByTestId('portal-channel').filter({ hasText: `${c.kind} ${stamp}` })).toBeVisible();
    }
    await expectAccessible(page, 'the portal channels in the settings');
    const channels = ((await (await request.get('/api/PortalChannels', { headers: auth(token) })).json()) as { items: { id: number; name: string; feedUrl: string }[] }).items;
    const spitogatos = channels.find((c) => c.name === `spitogatos ${stamp}`)!;
    const kyero = channels.find((c) => c.name === `kyero ${stamp}`)!;

    // A demo flat both would take, its energy class taken away; then published.
    const flat = await demoFlat(request, token, L.n, [spitogatos.id, kyero.id]);
    expect((await patchField(request, token, 'object', flat.id, 'energyClass', null)).ok()).toBeTruthy();
    expect((await patchField(request, token, 'object', flat.id, 'publishRequested', true)).ok()).toBeTruthy();
    await expect
      .poll(async () => ((await (await request.get(`/api/object/publishState/${flat.id}`, { headers: auth(token) })).json()) as { published: boolean }).published, { timeout: 30_000 })
      .toBe(true);

    await page.goto(`/Objects/View/${flat.id}`);
    const line = (name: string) => page.getByTestId('portal-status').filter({ hasText: name });
    await expect(line(`kyero ${stamp}`).getByTestId('portal-included')).toHaveText(L.inFeed);
    await expect(line(`kyero ${stamp}`).getByTestId('portal-ready')).toHaveText(L.ready);
    await expect(line(`spitogatos ${stamp}`)).toHaveAttribute('data-included', 'no');
    await expect(line(`spitogatos ${stamp}`).getByTestId('portal-missing')).toHaveText(L.missing);
    await expectAccessible(page, 'the publishing card with a portal refusing the property');
    const feed = async (url: string) => {
      const res = await page.request.get(new URL(url).pathname);
      expect(res.status()).toBe(200);
      return res.text();
    };
    expect(await feed(kyero.feedUrl)).toContain(`<ref>${flat.ref}</ref>`);
    expect(await feed(spitogatos.feedUrl)).not.toContain(`<ref>${flat.ref}</ref>`);

    // The energy class filled in on the property's form (saved as it is chosen): both portals take it.
    await page.goto(`/Objects/View/${flat.id}/1`);
    await page.getByTestId('field-energyClass').click();
    await page.getByRole('option', { name: L.energy, exact: true }).click();
    await expect(page.getByTestId('save-status')).toHaveAttribute('data-status', 'saved');
    await page.goto(`/Objects/View/${flat.id}`);
    await expect(line(`spitogatos ${stamp}`)).toHaveAttribute('data-included', 'yes');
    await expect(line(`spitogatos ${stamp}`).getByTestId('portal-ready')).toHaveText(L.ready);
    await expect(line(`kyero ${stamp}`)).toHaveAttribute('data-included', 'yes');
    await expectAccessible(page, 'the publishing card with both portals taking the property');
    await expect.poll(async () => (await feed(spitogatos.feedUrl)).includes(`<ref>${flat.ref}</ref>`)).toBe(true);
    expect(await feed(kyero.feedUrl)).toContain(`<ref>${flat.ref}</ref>`);

    // Kyero reports on its import that it refused the flat (decision 091): the card says so in its words.
    const channelNow = ((await (await request.get('/api/PortalChannels', { headers: auth(token) })).json()) as { items: { id: number; reportUrl: string }[] }).items.find((c) => c.id === kyero.id)!;
    const report = await page.request.post(new URL(channelNow.reportUrl).pathname, { data: `ref,message\n${flat.ref},"Price missing in the import, ${L.cookie}"\n`, headers: { 'content-type': 'text/csv' } });
    expect(report.status()).toBe(200);
    await page.goto(`/Objects/View/${flat.id}`);
    await expect(line(`kyero ${stamp}`).getByTestId('portal-report')).toHaveText(
      new RegExp(`^${L.cookie === 'el' ? 'Η πύλη αναφέρει' : 'The portal reports'}: Price missing in the import, ${L.cookie} \\(`),
    );
    await expectAccessible(page, 'the publishing card with a portal’s report');

    // Each fetch is recorded: the settings say when the portal last took the feed, and list what it refused.
    await page.goto('/Settings');
    const kyeroCard = page.getByTestId('portal-channel').filter({ hasText: `kyero ${stamp}` });
    await expect(kyeroCard.getByTestId('portal-last-fetched')).toHaveText(
      L.cookie === 'el' ? /^Τελευταία λήψη από την πύλη: / : /^Last fetched by the portal: /,
    );
    await expect(kyeroCard.getByTestId('portal-refused-item')).toHaveText(new RegExp(`^${flat.ref}: Price missing in the import, ${L.cookie} \\(`));
    await expect(kyeroCard.getByTestId('portal-refused-item').getByRole('link', { name: flat.ref })).toBeVisible();
  });
}
