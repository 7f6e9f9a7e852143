import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestApp } from '../../../test/harness.ts';
import { sendEnquiry } from '../../../test/records.ts';
import { seedDemo } from './demo.ts';

type Row = { id: number; ref: string; published: boolean; requested: boolean; refused: boolean };

describe("the demo's public site", () => {
  it('answers every demo property that was on the site as such: listed, or "no longer on our website" with its form; the others "not found"', async () => {
    const t = await createTestApp();
    await seedDemo(t.app);
    const demo = async () =>
      (
        await t.db.execute(sql`select id, lpad(reference_number::text, 4, '0') as ref, published, publish_requested as requested, publish_error is not null as refused
          from objects order by id`)
      ).rows as Row[];
    const history = async () =>
      (await t.db.execute<{ n: number }>(sql`select count(*)::int as n from action_log where entity = 'Object' and action in ('Publish', 'PublishRefused')`)).rows[0]!.n;
    const rows = await demo();
    const refused = rows.filter((o) => o.requested && !o.published);
    const listed = rows.filter((o) => o.published);
    const never = rows.filter((o) => !o.requested && !o.published);
    // The demo has all three kinds: on the site, taken off it (made inactive since), never asked for.
    expect(refused.length).toBeGreaterThan(0);
    expect(listed.length).toBeGreaterThan(0);
    expect(never.length).toBeGreaterThan(0);
    expect(refused.every((o) => o.refused)).toBe(true);

    const open = (ref: string) => t.app.inject({ url: `/listings/${ref}?lang=en` });
    for (const o of listed.slice(0, 3)) expect((await open(o.ref)).statusCode, o.ref).toBe(200);
    for (const o of refused) {
      const res = await open(o.ref);
      expect(res.statusCode, o.ref).toBe(410);
      expect(res.body).toContain(`<h1>Property ${o.ref} is no longer on our website</h1>`);
      expect(res.body).toContain('data-testid="contact-form"');
    }
    for (const o of never.slice(0, 3)) expect((await open(o.ref)).statusCode, o.ref).toBe(404);

    // An enquiry about one taken off the site is a lead, with the property on it.
    const gone = refused[0]!;
    const sent = await sendEnquiry(t.app, gone.ref, { name: 'Demo Visitor', email: 'demo.visitor@example.com', message: 'Is it still available?' });
    expect(sent.statusCode, sent.body.slice(0, 300)).toBe(303);
    const [lead] = (
      await t.db.execute(sql`select lo.object_id as "objectId" from leads l join accounts a on a.id = l.account_id left join lead_objects lo on lo.lead_id = l.id
        where 'demo.visitor@example.com' = any(a.emails)`)
    ).rows as { objectId: number | null }[];
    expect(lead).toEqual({ objectId: gone.id });

    // Its history in the office reads as the publishing writes it: published, then taken off the site.
    const [log] = (
      await t.db.execute(sql`select array_agg(action order by date, id) as actions, (array_agg(data order by date desc, id desc))[1] as last
        from action_log where entity = 'Object' and entity_id = ${gone.id}`)
    ).rows as { actions: string[]; last: { published: unknown; missing: string[] } }[];
    expect(log!.actions).toEqual(['Publish', 'PublishRefused']);
    expect(log!.last.published).toEqual({ from: true, to: false });
    expect(log!.last.missing).toContain('publishing.inactive');

    // Loaded again, nothing more is written; a demo loaded before its history was written gets it once.
    const written = await history();
    expect(written).toBe(listed.length + 2 * refused.length);
    await seedDemo(t.app);
    expect(await history()).toBe(written);
    await t.db.execute(sql`delete from action_log where entity = 'Object' and action in ('Publish', 'PublishRefused')`);
    await t.db.execute(sql`delete from demo_seed where area = 'publishing-history'`);
    t.app.publicPages.clear();
    expect((await open(refused[1]?.ref ?? gone.ref)).statusCode).toBe(404);
    await seedDemo(t.app);
    expect(await history()).toBe(written);
    expect((await open(refused[1]?.ref ?? gone.ref)).statusCode).toBe(410);
  });
});
