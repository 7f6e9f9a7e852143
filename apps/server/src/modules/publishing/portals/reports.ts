import type { FastifyInstance } from 'fastify';
import { sql } from 'drizzle-orm';
import { PORTAL_REFUSED_SHOWN, ZPortalReportBody, type TPortalReport } from '@crm/contract';
import { logAction } from '../../../lib/audit.ts';
import { toLocalDateTime } from '../../../lib/dates.ts';
import { badRequest } from '../../../lib/errors.ts';
import { PUBLIC_WHERE } from '../public.view.ts';

/**
 * The errors a portal reports on its import of a channel's feed (decision 091). No portal we build
 * for publishes how it reports them, so the report address takes the plainest forms: JSON
 * (`{"errors":[{"ref":"0042","message":"…"}]}` or the bare list) or CSV (`ref,message`, a header
 * line allowed, fields quoted as RFC 4180 says). Each report is the portal's whole answer on one
 * import: it replaces the channel's earlier errors (an empty one clears them).
 */
export type TReportLine = { ref: string; message: string };

/** Most lines a report holds, and the longest message kept (a portal's message is one sentence or two). */
export const REPORT_MAX_LINES = 10000;
const MESSAGE_MAX = 1000;

/** CSV as RFC 4180 writes it: commas, quotes doubled inside quoted fields, CRLF or LF. */
function csvRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === '') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      if (row.some((f) => f.trim())) rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  row.push(field);
  if (row.some((f) => f.trim())) rows.push(row);
  return rows;
}

/** The report's lines, from JSON (parsed by the server) or CSV text; a 400 when it is neither. */
export function parseReport(body: unknown): TReportLine[] {
  let lines: TReportLine[];
  if (typeof body === 'string') {
    const rows = csvRows(body.replace(/^\uFEFF/, ''));
    if (rows.length && /^\s*ref/i.test(rows[0]![0] ?? '') && /^\s*message/i.test(rows[0]![1] ?? '')) rows.shift();
    if (rows.some((r) => r.length < 2)) throw badRequest('portals.errors.badReport');
    lines = rows.map((r) => ({ ref: r[0]!, message: r.slice(1).join(',') }));
  } else {
    const parsed = ZPortalReportBody.safeParse(body);
    if (!parsed.success) throw badRequest('portals.errors.badReport');
    lines = (Array.isArray(parsed.data) ? parsed.data : parsed.data.errors).map((e) => ({ ref: String(e.ref), message: e.message }));
  }
  if (lines.length > REPORT_MAX_LINES) throw badRequest('portals.errors.badReport');
  return lines
    .map((l) => ({ ref: l.ref.trim().slice(0, 50), message: l.message.trim().slice(0, MESSAGE_MAX) }))
    .filter((l) => l.ref && l.message);
}

/** The report recorded for the channel in place of its earlier one, its references matched to our properties; logged. */
export async function recordReport(app: FastifyInstance, channel: { id: number; name: string; selection: string }, lines: TReportLine[]): Promise<number> {
  // Only a property this channel sends (on the website, and chosen for it where the channel sends
  // the chosen ones) is named: a portal's reference to any other, a private one included, is kept unmatched.
  const sent = channel.selection === 'chosen' ? sql`and exists (select 1 from portal_channel_objects pc where pc.channel_id = ${channel.id} and pc.object_id = o.id)` : sql``;
  await app.db.transaction(async (tx) => {
    await tx.execute(sql`delete from portal_reports where channel_id = ${channel.id}`);
    if (lines.length) {
      const refs = lines.map((l) => l.ref);
      const messages = lines.map((l) => l.message);
      // The feeds give the reference number zero-padded ("0042"): matched by its number.
      await tx.execute(sql`
        insert into portal_reports (channel_id, ref, object_id, message)
        select ${channel.id}, r.ref, (select o.id from objects o where r.ref ~ '^[0-9]{1,9}$' and o.reference_number = r.ref::int and ${PUBLIC_WHERE} ${sent}), r.message
        from unnest(${sql.param(refs)}::text[], ${sql.param(messages)}::text[]) as r(ref, message)`);
    }
    await logAction(tx, { id: null, name: channel.name }, { action: 'PortalReport', entity: 'PortalChannel', entityId: channel.id, data: { errors: lines.length } });
  });
  return lines.length;
}

type Row = { ref: string; objectId: number | null; message: string; reportedOn: Date | string };
const out = (r: Row, tz: string): TPortalReport => ({ ref: r.ref, objectId: r.objectId, message: r.message, reportedOn: toLocalDateTime(new Date(r.reportedOn), tz)! });

/** The properties a channel's last report refused (the first by reference) and their number. */
export async function channelRefused(app: FastifyInstance, channelId: number): Promise<{ refused: TPortalReport[]; refusedCount: number }> {
  const rows = (
    await app.db.execute(sql`
      select ref, object_id as "objectId", message, reported_on as "reportedOn", count(*) over () as n
      from portal_reports where channel_id = ${channelId} order by ref, id limit ${PORTAL_REFUSED_SHOWN}`)
  ).rows as (Row & { n: string })[];
  return { refused: rows.map((r) => out(r, app.config.timeZone)), refusedCount: rows.length ? Number(rows[0]!.n) : 0 };
}

/** What each channel's last report said of one property, by channel. */
export async function objectReports(app: FastifyInstance, objectId: number): Promise<Map<number, TPortalReport[]>> {
  const rows = (
    await app.db.execute(sql`
      select channel_id as "channelId", ref, object_id as "objectId", message, reported_on as "reportedOn"
      from portal_reports where object_id = ${objectId} order by id`)
  ).rows as (Row & { channelId: number })[];
  const by = new Map<number, TPortalReport[]>();
  for (const r of rows) by.set(r.channelId, [...(by.get(r.channelId) ?? []), out(r, app.config.timeZone)]);
  return by;
}
