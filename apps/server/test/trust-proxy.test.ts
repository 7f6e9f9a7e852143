import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';
import { createTestApp } from './harness.ts';

/**
 * TRUST_PROXY names the balancer (docs/deploy.md): its forwarded address is believed, one a client
 * sends from anywhere else is not, so a client reaching an instance directly cannot choose the
 * address its sign-in throttle and its signature's record use.
 */
const t = await createTestApp({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8' });
afterAll(() => t.app.close());

/** Signs in from `from`, saying it forwards for `forwarded`; answers the address the sign-in was logged with. */
async function signInFrom(email: string, password: string, from: string, forwarded: string): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: '/api/authenticate/login', remoteAddress: from, headers: { 'x-forwarded-for': forwarded }, payload: { username: email, password } });
  expect(res.statusCode, res.body).toBe(200);
  const row = await t.pool.query<{ ip: string }>(`select data->>'ip' as ip from action_log where action = 'Login' order by id desc limit 1`);
  return row.rows[0]!.ip;
}

describe('TRUST_PROXY with the balancer\'s addresses', () => {
  it('believes the address a listed proxy forwards, and not one sent from elsewhere', async () => {
    const u = await t.user();
    expect(await signInFrom(u.email, u.password, '127.0.0.1', '203.0.113.7')).toBe('203.0.113.7');
    expect(await signInFrom(u.email, u.password, '10.2.3.4', '203.0.113.8')).toBe('203.0.113.8');
    expect(await signInFrom(u.email, u.password, '198.51.100.9', '6.6.6.6')).toBe('198.51.100.9');
  });

  it('reads yes or no, or addresses and networks, and refuses anything else with the reason', () => {
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: 'no' }).trustProxy).toBe(false);
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.5,fd00::/8, loopback' }).trustProxy).toEqual(['10.0.0.5', 'fd00::/8', 'loopback']);
    for (const bad of ['balancer.local', '10.0.0.0/33', '10.0.0.1/8/2', ',']) {
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(ConfigError);
    }
    expect(() => loadConfig({ TRUST_PROXY: 'balancer.local' })).toThrow(/TRUST_PROXY="balancer.local": true, false, or the proxies' addresses or networks, comma separated \(not balancer.local\)/);
  });
});
