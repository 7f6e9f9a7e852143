import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createDemoApp } from '../../../test/demo-app.ts';
import { checkOfficeAlerts, checkRentReminders } from '../../modules/alerts/alerts.system.ts';
import { seedDemo } from './demo.ts';

describe('the demo agency on its first morning', async () => {
  const { t, user: admin, q } = await createDemoApp('admin');

  it('greets the office with a few new alerts of today, the rest read on their day', async () => {
    // The navbar's badge and the alerts list say the same small number.
    const badge = (await admin.get('/api/Alert/unreadCount')).json() as number;
    expect(badge).toBeGreaterThanOrEqual(2);
    expect(badge).toBeLessThanOrEqual(4);
    const list = (await admin.post('/api/alert/list', { perPage: 100, currentPage: 1 })).json() as { totalRows: number; unreadCount: number };
    expect(list.unreadCount).toBe(badge);
    // A week's worth of alerts is there (to-dos past their date, keys, rent, the website), most of them read.
    expect(list.totalRows).toBeGreaterThan(10);
    const [c] = await q<{ unreadOld: number; readLater: number; readBefore: number; readers: number; days: number }>(sql`select
      count(*) filter (where readed_on is null and date < now() - interval '1 day')::int as "unreadOld",
      count(*) filter (where readed_on > now())::int as "readLater",
      count(*) filter (where readed_on < date)::int as "readBefore",
      count(distinct readed_by) filter (where readed_on is not null)::int as readers,
      count(distinct date::date)::int as days from alerts`);
    // New ones are of the last day; none read before it arose or in the future; read by the office's administrator.
    expect(c).toMatchObject({ unreadOld: 0, readLater: 0, readBefore: 0, readers: 1 });
    // Dated over several days, as they arose, not all at the moment the demo was loaded.
    expect(c!.days).toBeGreaterThan(3);
  });

  it('the hourly checks at start-up find nothing new to tell', async () => {
    const before = (await admin.get('/api/Alert/unreadCount')).json() as number;
    await checkRentReminders(t.app);
    await checkOfficeAlerts(t.app);
    expect((await admin.get('/api/Alert/unreadCount')).json()).toBe(before);
    await seedDemo(t.app);
    expect((await admin.get('/api/Alert/unreadCount')).json()).toBe(before);
  });
});
