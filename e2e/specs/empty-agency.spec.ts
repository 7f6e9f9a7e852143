import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { ADMIN, E2E_DATA_DIR } from '../playwright.config.ts';
import { expectAccessible, signedIn } from '../fixtures.ts';

/**
 * A new office's first look, on a server of its own started without the demo (DEMO_DATA=false, as an
 * agency installs it): the suite's server holds the demo, so its lists are never empty. Starting one
 * costs some 20 s, so this file holds only what an empty office alone can show.
 */

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

/** Starts the real server (the suite's launcher) on a fresh folder without the demo; answers its address and a way to stop it. */
async function startEmptyOffice(): Promise<{ baseURL: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [path.join(import.meta.dirname, '..', 'start-server.mjs')], {
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: path.join(E2E_DATA_DIR, 'empty-office'),
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      DEMO_DATA: 'false',
      LOG_LEVEL: 'warn',
      PASSWORD_HASH_FAST: 'true',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    // SIGTERM lets the app stop its embedded PostgreSQL cleanly.
    if (child.exitCode === null) child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 20_000))]);
  };
  const baseURL = `http://localhost:${port}`;
  for (let waited = 0; ; waited += 500) {
    if (child.exitCode !== null) throw new Error(`the empty office's server stopped (exit ${child.exitCode})`);
    if (await fetch(`${baseURL}/api/health`).then((r) => r.ok, () => false)) break;
    if (waited > 150_000) {
      await stop();
      throw new Error("the empty office's server did not start");
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  return { baseURL, stop };
}

test('an empty office: the properties list and the property search say so and offer Add property (el)', async ({ browser }) => {
  test.setTimeout(240_000);
  const office = await startEmptyOffice();
  try {
    const login = await fetch(`${office.baseURL}/api/authenticate/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: ADMIN.email, password: ADMIN.password }),
    });
    expect(login.ok).toBe(true);
    const token = ((await login.json()) as { token: string }).token;
    const ctx = await signedIn(browser, office.baseURL, token, 'el');
    const page = await ctx.newPage();
    const nothingYet = 'Δεν υπάρχουν ακόμη ακίνητα. Καταχωρίστε το πρώτο και θα εμφανιστεί εδώ.';

    // The list: a count of 0, what the emptiness means, and the next action in its place.
    await page.goto(`${office.baseURL}/Objects`);
    await expect(page.getByTestId('objects-count')).toHaveText('0');
    const empty = page.getByTestId('objects-table-empty');
    await expect(empty).toContainText(nothingYet);
    await expect(page.getByTestId('objects-table-row')).toHaveCount(0);
    await expectAccessible(page, 'empty agency: properties');

    // The search, with no criteria, says the same (not "nothing matches"), with Add property.
    await page.goto(`${office.baseURL}/Objects/Search`);
    const searchEmpty = page.getByTestId('object-search-table-empty');
    await expect(searchEmpty).toContainText(nothingYet);
    await expect(searchEmpty.getByTestId('object-search-add')).toHaveText('Νέο ακίνητο');

    // Add property in the empty list opens the new property, ready to fill in.
    await page.goto(`${office.baseURL}/Objects`);
    await empty.getByTestId('objects-add').click();
    await expect(page).toHaveURL(/\/Objects\/View\/\d+\/2$/);
    await ctx.close();
  } finally {
    await office.stop();
  }
});
