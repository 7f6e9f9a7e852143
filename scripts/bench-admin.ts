import type pg from 'pg';
import { hashPassword } from '../apps/server/src/lib/passwords.ts';

const EMAIL = 'bench-admin@bench.invalid';
const PASSWORD = 'bench-admin-password';

/**
 * Makes (or resets) the benches' administrator, with a fast password hash, and answers how to sign
 * it in at `base`: each call is a new session's token (the sign-in throttle's failures cleared first).
 */
export async function benchAdmin(pool: pg.Pool, base: string) {
  await pool.query(
    `insert into users (email, username, roles, password_hash) values ($1, $1, array['admin'], $2)
     on conflict ((lower(email))) do update set password_hash = excluded.password_hash, roles = excluded.roles, disabled = false`,
    [EMAIL, await hashPassword(PASSWORD, true)],
  );
  return async function signIn(): Promise<string> {
    await pool.query(`delete from login_failures where key = any($1)`, [[`a:${EMAIL}`, 'ip:127.0.0.1']]);
    const login = await fetch(`${base}/api/authenticate/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username: EMAIL, password: PASSWORD }) });
    if (login.status !== 200) throw new Error(`bench sign-in failed: ${login.status} ${await login.text()}`);
    return ((await login.json()) as { token: string }).token;
  };
}
