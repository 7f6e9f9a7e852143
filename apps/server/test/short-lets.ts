// Short-let properties and their bookings, made the way the reservations' tests need them.
import { expect } from 'vitest';
import { objects } from '../src/db/schema/index.ts';
import type { Client, TestApp } from './harness.ts';

export function shortLets(t: TestApp, agent: Client) {
  let seq = 0;
  /** A short-let property with the given website code; its reference as the screens print it. */
  async function newObject(code: string, values: Record<string, unknown> = {}) {
    seq++;
    const [o] = await t.db
      .insert(objects)
      .values({ title: `Studio ${code}`, forShortRent: true, websiteCode: code, ...values } as never)
      .returning({ id: objects.id, ref: objects.referenceNumber });
    return { ...o!, refText: String(o!.ref).padStart(4, '0') };
  }
  /** A confirmed booking by the agent, for a new guest. */
  async function book(objectId: number, checkIn: string, duration: number, extra: Record<string, unknown> = {}) {
    const res = await agent.post('/api/Reservation/update', { objectId, checkIn, duration, client: { lastName: `Guest${++seq}` }, reservationStage: 3, ...extra });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { id: number; version: number };
  }
  return { newObject, book };
}
