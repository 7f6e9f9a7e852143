import { describe, expect, it } from 'vitest';
import { createTestApp } from '../../test/harness.ts';

/** The database's news after a commit (lib/db-notices.ts), and its listening connection lost and made again. */
describe('database notices', () => {
  it('are heard after the commit only, and again once the listening connection was lost and made again', async () => {
    const t = await createTestApp();
    const heard: string[] = [];
    // Registered after start: listened to from the next connection on (after the loss below).
    t.app.dbNotices.on('crm_test_news', () => heard.push('news'));
    const q = (text: string) => t.pool.query(text);
    const until = async (ok: () => boolean, ms = 5000) => {
      const end = Date.now() + ms;
      while (!ok() && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
      return ok();
    };
    // The app's own channel: emptied on a published property's change (migration 0052), not on a rolled back one.
    let cleared = 0;
    const clear = t.app.publicPages.clear.bind(t.app.publicPages);
    t.app.publicPages.clear = () => {
      cleared++;
      clear();
    };
    await q(`begin; select pg_notify('crm_public_site', ''); rollback`);
    await new Promise((r) => setTimeout(r, 200));
    expect(cleared).toBe(0);
    await q(`select pg_notify('crm_public_site', '')`);
    expect(await until(() => cleared === 1)).toBe(true);

    // The listening connection dies (a restarted database, a network cut): it is made again, and
    // every handler is told once, since news may have been missed meanwhile.
    const killed = await q(`select pg_terminate_backend(pid) as done from pg_stat_activity where datname = current_database() and query = 'listen crm_public_site'`);
    expect(killed.rows.length).toBeGreaterThan(0);
    expect(await until(() => cleared >= 2 && heard.length >= 1)).toBe(true);
    const before = cleared;
    await q(`select pg_notify('crm_public_site', '')`);
    expect(await until(() => cleared === before + 1)).toBe(true);
    await t.app.close();
  });
});
