import { and, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import { LEAD_STAGE_NEGOTIATING, LEAD_STAGE_NEW, LEAD_STAGE_VIEWINGS, dealOpenedLogMessage, viewingArrangedLogMessage } from '@crm/contract';
import type { Tx } from '../../db/client.ts';
import { leadColumns, leads } from '../../db/schema/index.ts';
import { logAction, type Actor } from '../../lib/audit.ts';

/**
 * A lead moves on by itself when something is done for it, so the list does not keep calling a lead
 * with viewings and a deal "New". Only forward along new → viewings → negotiating, and only from a
 * stage no one chose by hand: a viewing moves a lead that is still New; a deal moves a lead that is
 * New or at Viewings (the stage a viewing gave it, or the one just before negotiating). Any other
 * stage (Contacted, Offering, Negotiating, Won, Lost, On hold) is the agent's and stays.
 */
const STEPS = {
  viewing: { to: LEAD_STAGE_VIEWINGS, from: [LEAD_STAGE_NEW], message: viewingArrangedLogMessage, data: 'viewingId' },
  deal: { to: LEAD_STAGE_NEGOTIATING, from: [LEAD_STAGE_NEW, LEAD_STAGE_VIEWINGS], message: dealOpenedLogMessage, data: 'dealId' },
} as const;

/**
 * Moves lead `leadId` to the stage `what` (a viewing arranged, a deal made: record `recordId`) leads
 * to, when its stage allows it (STEPS); a new version of the lead, logged as a change of its stage.
 * Inside the caller's transaction. Answers whether it moved.
 */
export async function advanceLeadStage(tx: Tx, by: { userId: number; actor: Actor }, leadId: number, what: keyof typeof STEPS, recordId: number): Promise<boolean> {
  const step = STEPS[what];
  const stage = leadColumns.stage!;
  const [moved] = await tx
    .update(leads)
    .set({ stage: step.to, version: sql`${leads.version} + 1`, modifiedOn: new Date(), modifiedBy: by.userId } as never)
    .where(and(eq(leads.id, leadId), or(isNull(stage), inArray(stage, [...step.from]))))
    .returning({ id: leads.id });
  if (!moved) return false;
  await logAction(tx, by.actor, { action: 'Update', entity: 'Lead', entityId: leadId, message: step.message(recordId), data: { stage: step.to, [step.data]: recordId } });
  return true;
}
