import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { users } from '../../db/schema/index.ts';
import { createTestApp } from '../../../test/harness.ts';
import { ensureFirstAdmin } from './auth.service.ts';

const t = await createTestApp();
const { app } = t;

describe('the first administrator', () => {
  it('is named by the e-mail\'s local part, so records it makes do not show its sign-in address', async () => {
    expect(await ensureFirstAdmin(app, 'owner.office@agency.test', 'first-admin-password')).toBe(true);
    const [u] = await t.db.select({ username: users.username }).from(users).where(eq(users.email, 'owner.office@agency.test'));
    expect(u!.username).toBe('owner.office');
    const token = (await app.inject({ method: 'POST', url: '/api/authenticate/login', payload: { username: 'owner.office@agency.test', password: 'first-admin-password' } })).json().token as string;
    const owner = t.client(token);
    const added = await owner.post('/api/account/add', { lastName: 'Stamped', firstName: 'Nikos' });
    expect(added.statusCode, added.body).toBe(200);
    const view = (await owner.get(`/api/account/view/${added.json().id}`)).json();
    expect(view.createdBy).toBe('owner.office');
    expect(JSON.stringify(view)).not.toContain('owner.office@agency.test');
  });

  it('made before 0034 is renamed by the migration; sign-ins of accounts keep their names', async () => {
    await t.db.insert(users).values([
      { email: 'old.admin@agency.test', username: 'old.admin@agency.test', roles: ['admin'] },
      { email: 'client@agency.test', username: 'client@agency.test', roles: ['clientPayments'] },
    ]);
    const migration = fs.readFileSync(path.join(import.meta.dirname, '../../../drizzle/0034_first_admin_name.sql'), 'utf8');
    await t.db.execute(sql.raw(migration));
    const rows = (await t.db.execute(sql`select email, username from users where email in ('old.admin@agency.test', 'client@agency.test') order by email`)).rows;
    expect(rows).toEqual([
      { email: 'client@agency.test', username: 'client@agency.test' },
      { email: 'old.admin@agency.test', username: 'old.admin' },
    ]);
  });
});
