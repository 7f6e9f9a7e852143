import net from 'node:net';
import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { createTestApp } from '../../test/harness.ts';
import { connectDb } from '../db/client.ts';
import { DbNotices } from './db-notices.ts';

/** Returns once `ok` holds (asked again every 20 ms, for at most 5 s). */
const until = (ok: () => boolean) => vi.waitFor(() => expect(ok()).toBe(true), { timeout: 5000, interval: 20 });

/**
 * A way to the database that can fall silent, as a host or a network that goes down does: no byte
 * passes any more either way, and no connection is closed. Connections made after that pass.
 */
async function silencer(target: string) {
  const to = new URL(target);
  const port = Number(to.port || 5432);
  // The database's own socket file when the URL names one (?host=/dir), else its TCP port.
  const socketDir = to.searchParams.get('host');
  const passing: [net.Socket, net.Socket][] = [];
  const silent: net.Socket[] = [];
  /** What the database sent on the connections fallen silent, kept there instead of passed on. */
  const held: Buffer[] = [];
  const server = net.createServer((inbound) => {
    const outbound = socketDir ? net.connect(`${socketDir}/.s.PGSQL.${port}`) : net.connect(port, to.hostname);
    passing.push([inbound, outbound]);
    for (const s of [inbound, outbound]) s.on('error', () => [inbound, outbound].forEach((x) => x.destroy()));
    inbound.pipe(outbound);
    outbound.pipe(inbound);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const via = new URL(target);
  via.hostname = '127.0.0.1';
  via.port = String((server.address() as net.AddressInfo).port);
  via.searchParams.delete('host');
  return {
    url: via.toString(),
    silence() {
      for (const [inbound, outbound] of passing.splice(0)) {
        inbound.unpipe(outbound);
        outbound.unpipe(inbound);
        inbound.pause();
        outbound.on('data', (b: Buffer) => held.push(b)).resume();
        silent.push(inbound, outbound);
      }
    },
    /** What the database sent since, stopped on the way. */
    held: () => Buffer.concat(held).toString('latin1'),
    async close() {
      for (const s of [...silent, ...passing.flat()]) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}

/** The database's news after a commit (lib/db-notices.ts), and its listening connection lost and made again. */
describe('database notices', () => {
  it('are heard after the commit only, and again once the listening connection was lost and made again', async () => {
    const t = await createTestApp();
    const heard: string[] = [];
    // Registered after start: listened to from the next connection on (after the loss below).
    t.app.dbNotices.on('crm_test_news', () => heard.push('news'));
    const q = (text: string) => t.pool.query(text);
    // The app's own channel: emptied on a published property's change (migration 0052), not on a rolled back one.
    let cleared = 0;
    const clear = t.app.publicPages.clear.bind(t.app.publicPages);
    t.app.publicPages.clear = () => {
      cleared++;
      clear();
    };
    // The database tells every listening connection the same, in commit order: one of our own hears
    // what the app's hears, up to a notice committed after the rolled back one.
    const own = new pg.Client({ connectionString: t.dbUrl });
    await own.connect();
    const told: string[] = [];
    own.on('notification', (m) => told.push(m.payload ?? ''));
    await own.query('listen crm_public_site');
    await q(`begin; select pg_notify('crm_public_site', 'rolled back'); rollback`);
    await q(`select pg_notify('crm_public_site', 'committed')`);
    await until(() => told.includes('committed'));
    await own.end();
    expect(told).toEqual(['committed']);
    await until(() => cleared === 1);

    // The listening connection dies (a restarted database, a network cut): it is made again, and
    // every handler is told once, since news may have been missed meanwhile.
    const killed = await q(`select pg_terminate_backend(pid) as done from pg_stat_activity where datname = current_database() and query = 'listen crm_public_site'`);
    expect(killed.rows.length).toBeGreaterThan(0);
    await until(() => cleared >= 2 && heard.length >= 1);
    const before = cleared;
    await q(`select pg_notify('crm_public_site', '')`);
    await until(() => cleared === before + 1);
    await t.app.close();
  });

  it('notice a database gone silent without closing the connection by the heartbeat, listen again and hear the next notice', async () => {
    const t = await createTestApp();
    const way = await silencer(t.dbUrl);
    const viaWay = connectDb(way.url, 1);
    const notices = new DbNotices(viaWay.db, t.app.log);
    notices.heartbeat = { everyMs: 200, timeoutMs: 300 };
    let heard = 0;
    notices.on('crm_test_news', () => heard++);
    await notices.start();
    const notify = () => t.pool.query(`select pg_notify('crm_test_news', '')`);
    await notify();
    await until(() => heard === 1);

    // Nothing passes any more, and nothing says so: the next notice is not heard on that connection.
    way.silence();
    await notify();
    // It reached that connection and is held on the way.
    await until(() => way.held().includes('crm_test_news'));
    expect(heard).toBe(1);
    // The heartbeat gets no answer: the connection is given up and made again (after 1 s), and the
    // handler is told once, since news may have been missed meanwhile.
    await until(() => heard === 2);
    await notify();
    await until(() => heard === 3);

    await notices.stop();
    await viaWay.close();
    await way.close();
    await t.app.close();
  });
});
