import { paymentsLinkBase } from '../settings/site-settings.service.ts';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { APPROVAL_LINK_DAYS, APPROVAL_REVERT_HOURS, EXPENSE_STATUS_NOT_PAID, cultureOf, type TExpenseForApproval } from '@crm/contract';
import { accounts, transactionAttachments, transactions } from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import { logAction, type Actor } from '../../lib/audit.ts';
import { newToken, sha256 } from '../../lib/passwords.ts';
import { toLocalDateTime } from '../../lib/dates.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { canRevertApproval, requireReadableTransaction, touchPaymentAccount } from '../payments/payments.service.ts';
import { canEditPayments, isAccountClient } from '../payments/payments.access.ts';
import { accessDenied } from '../../lib/errors.ts';
import { clientAddress, signInLanguage } from './invitations.ts';
import { MAIL_LETTERS, buildMail } from '../../mail/mail-people.ts';
import type { T } from '../../lib/i18n.ts';

/** What is stored of a link's token: its SHA-256, in hex. */
export const tokenHash = (token: string) => sha256(token).toString('hex');

/**
 * The client's approval of an expense (document 001, 2.11 and 7). Staff send an expense to the
 * account's client: the expense gets a fresh 256-bit token, stored only as its SHA-256 next to that
 * expense, and the client gets a mail with /Payments/ApproveExpense/{id}?token=... on the payments
 * host. The link opens that expense only (id and token must match one row), needs no sign-in, and
 * stops working when a newer link is sent or after APPROVAL_LINK_DAYS. Approve and revert are
 * written to the action log with the time, the link used (its expense and when it was sent) and
 * where the click came from.
 */

/** The page a link opens, on the payments host. */
export const approvalPath = (id: number) => `/Payments/ApproveExpense/${id}`;


const money = (amount: string) => {
  const [whole, frac] = amount.split('.');
  return `${whole!.replace(/\B(?=(\d{3})+(?!\d))/g, ' ')},${(frac ?? '00').padEnd(2, '0')} €`;
};

/** What the approval reads of an expense. */
const expenseColumns = {
  id: transactions.id,
  accountId: transactions.accountId,
  type: transactions.type,
  amount: sql<string>`${transactions.amount}::text`,
  categoryId: transactions.categoryId,
  transactionDate: transactions.transactionDate,
  status: transactions.status,
  approvalRequestedOn: transactions.approvalRequestedOn,
  approvalTokenHash: transactions.approvalTokenHash,
  confirmedByClientDate: transactions.confirmedByClientDate,
};

/** The expense a link names, when the link is still good for it (same answer for a wrong id and a wrong token). */
async function expenseOfLink(app: FastifyInstance, id: number, token: string) {
  const [row] = await app.db
    .select(expenseColumns)
    .from(transactions)
    .where(and(eq(transactions.id, id), eq(transactions.approvalTokenHash, tokenHash(token))))
    .limit(1);
  const fresh = row?.approvalRequestedOn && Date.now() - row.approvalRequestedOn.getTime() < APPROVAL_LINK_DAYS * 24 * 3600 * 1000;
  if (!row || row.type !== 'expense' || !fresh) throw new AppError(404, 'paymentsClient.approval.linkInvalid');
  return row;
}
type LinkedExpense = Awaited<ReturnType<typeof expenseOfLink>>;

/** Revert stays possible while the expense is unpaid and for APPROVAL_REVERT_HOURS after the approval. */
export const canRevert = (e: Pick<LinkedExpense, 'confirmedByClientDate' | 'status'>, now = Date.now()) => canRevertApproval(e, now);

/**
 * The revert's own condition, written into its UPDATE: the approval read (not a later one), on an
 * expense still unpaid, within APPROVAL_REVERT_HOURS. canRevert() checks a row read before the
 * transaction; an office save marking the expense paid in between (a paid mark keeps the approval)
 * must win, or the paid expense would show as awaiting approval again.
 */
const stillRevertible = (e: Pick<LinkedExpense, 'id' | 'confirmedByClientDate'>) =>
  and(
    eq(transactions.id, e.id),
    eq(transactions.confirmedByClientDate, e.confirmedByClientDate!),
    eq(transactions.status, EXPENSE_STATUS_NOT_PAID),
    sql`${transactions.confirmedByClientDate} > now() - make_interval(hours => ${APPROVAL_REVERT_HOURS})`,
  );

/** A revert that changed nothing: fine when the approval is gone already (another device), refused when it stands. */
async function refusedUnlessReverted(app: FastifyInstance, id: number) {
  const [now] = await app.db.select({ c: transactions.confirmedByClientDate }).from(transactions).where(eq(transactions.id, id)).limit(1);
  if (now?.c) throw new AppError(409, 'paymentsClient.approval.revertNotAllowed');
}

async function answer(app: FastifyInstance, e: LinkedExpense, t: T): Promise<TExpenseForApproval> {
  const [files, [account]] = await Promise.all([
    app.db
      .select({ id: transactionAttachments.id, name: transactionAttachments.userName })
      .from(transactionAttachments)
      .where(eq(transactionAttachments.transactionId, e.id))
      .orderBy(transactionAttachments.id),
    app.db.select({ language: accounts.language }).from(accounts).where(eq(accounts.id, e.accountId)).limit(1),
  ]);
  return {
    amount: e.amount,
    categoryName: e.categoryId === null ? null : t(`payments.category.${e.categoryId}`),
    transactionDate: toLocalDateTime(e.transactionDate, app.config.timeZone)!,
    attachments: files,
    confirmedByClientDate: toLocalDateTime(e.confirmedByClientDate, app.config.timeZone),
    canRevertApproval: canRevert(e),
    language: signInLanguage(account?.language ?? null),
  };
}

/** GET /api/transactions/viewExpense/{id}?token=: the expense as the client reviews it. */
export async function viewExpense(app: FastifyInstance, id: number, token: string, t: T) {
  return answer(app, await expenseOfLink(app, id, token), t);
}

/** A file of the expense the link names. */
export async function approvalAttachment(app: FastifyInstance, id: number, token: string, fileId: number) {
  const e = await expenseOfLink(app, id, token);
  const [file] = await app.db
    .select()
    .from(transactionAttachments)
    .where(and(eq(transactionAttachments.id, fileId), eq(transactionAttachments.transactionId, e.id)))
    .limit(1);
  if (!file) throw new AppError(404, 'payments.attachmentNotFound');
  return file;
}

/** What the action log keeps of the click: when, which link (expense, when it was sent, its hash's start), and from where. */
function linkUsed(app: FastifyInstance, req: FastifyRequest, e: LinkedExpense, token: string) {
  return {
    time: toLocalDateTime(new Date(), app.config.timeZone),
    link: `${app.config.paymentsUrl}${approvalPath(e.id)}`,
    linkSentOn: toLocalDateTime(e.approvalRequestedOn, app.config.timeZone),
    linkId: tokenHash(token).slice(0, 12),
    ip: req.ip,
    userAgent: String(req.headers['user-agent'] ?? '').slice(0, 300),
  };
}

/** The client of the account, as the log names who clicked (the link has no sign-in). */
const clientActor = async (app: FastifyInstance, accountId: number): Promise<Actor> => {
  const [a] = await app.db.select({ name: accounts.displayName }).from(accounts).where(eq(accounts.id, accountId)).limit(1);
  return { id: null, name: a?.name ?? null };
};

/** POST /api/transactions/approveExpense/{id}?token=: approved now (an approved expense stays as it was). */
export async function approveExpense(app: FastifyInstance, req: FastifyRequest, id: number, token: string, t: T) {
  const e = await expenseOfLink(app, id, token);
  if (!e.confirmedByClientDate) {
    const actor = await clientActor(app, e.accountId);
    await app.db.transaction(async (tx) => {
      const [done] = await tx
        .update(transactions)
        .set({ confirmedByClientDate: new Date() })
        // Still this link's expense: an office edit between reading and approving cancels the link.
        .where(and(eq(transactions.id, e.id), isNull(transactions.confirmedByClientDate), eq(transactions.approvalTokenHash, tokenHash(token))))
        .returning({ id: transactions.id });
      if (!done) return;
      await touchPaymentAccount(tx, e.accountId);
      await logAction(tx, actor, { action: 'ApproveExpense', entity: 'Transaction', entityId: e.id, message: `#${e.id}`, data: { accountId: e.accountId, ...linkUsed(app, req, e, token) } });
    });
  }
  return viewExpense(app, id, token, t);
}

/** POST /api/transactions/revertApprovalExpense/{id}?token=: back to unconfirmed, while allowed. */
export async function revertApproval(app: FastifyInstance, req: FastifyRequest, id: number, token: string, t: T) {
  const e = await expenseOfLink(app, id, token);
  // Reverted already (from another device, or a second tap): what was asked is so, and is answered as it is.
  if (!e.confirmedByClientDate) return viewExpense(app, id, token, t);
  if (!canRevert(e)) throw new AppError(409, 'paymentsClient.approval.revertNotAllowed');
  const actor = await clientActor(app, e.accountId);
  const reverted = await app.db.transaction(async (tx) => {
    const [done] = await tx
      .update(transactions)
      .set({ confirmedByClientDate: null })
      .where(and(stillRevertible(e), eq(transactions.approvalTokenHash, tokenHash(token))))
      .returning({ id: transactions.id });
    if (!done) return false;
    await touchPaymentAccount(tx, e.accountId);
    await logAction(tx, actor, {
      action: 'RevertExpenseApproval',
      entity: 'Transaction',
      entityId: e.id,
      message: `#${e.id}`,
      data: { accountId: e.accountId, approvedOn: toLocalDateTime(e.confirmedByClientDate, app.config.timeZone), ...linkUsed(app, req, e, token) },
    });
    return true;
  });
  if (!reverted) await refusedUnlessReverted(app, id);
  return viewExpense(app, id, token, t);
}

// ---------- the client's own approval, on the statement (signed in) ----------
//
// The same rules as the mailed link's page: an expense the office sent for approval is approved once
// (approving it again changes nothing), and the approval is reverted while canRevert allows. The
// sign-in is the key here instead of the link's token: only the account's own payments client
// (isAccountClient; never staff for them), and only the request the statement showed (its
// approvalRequestedOn): one the office has cancelled by an edit, or sent again since, is refused (409),
// so an Approve on a statement loaded before a change never approves the new terms. The link's 30 days
// bound the link, not the request: a signed-in client may still answer an older one.

/** An expense of the caller's own account (403 for any other transaction, known or not: a client probes nothing). */
async function ownExpense(app: FastifyInstance, user: SessionUser, id: number) {
  const [row] = await app.db.select(expenseColumns).from(transactions).where(eq(transactions.id, id)).limit(1);
  if (!row || !isAccountClient(user, row.accountId)) throw accessDenied();
  return row;
}

/** What the action log keeps of a click on the statement: when, which request it answered, and from where. */
function statementUsed(app: FastifyInstance, req: FastifyRequest, e: LinkedExpense) {
  return {
    time: toLocalDateTime(new Date(), app.config.timeZone),
    linkSentOn: toLocalDateTime(e.approvalRequestedOn, app.config.timeZone),
    ip: req.ip,
    userAgent: String(req.headers['user-agent'] ?? '').slice(0, 300),
  };
}

/** POST /api/transactions/statement/approveExpense/{id}: the account's client approves the request its statement showed. */
export async function approveOwnExpense(app: FastifyInstance, req: FastifyRequest, id: number, requestedOn: string, t: T) {
  const user = req.user!;
  const e = await ownExpense(app, user, id);
  if (e.confirmedByClientDate) return answer(app, e, t);
  const asked = e.type === 'expense' && e.approvalTokenHash !== null && e.approvalRequestedOn !== null && toLocalDateTime(e.approvalRequestedOn, app.config.timeZone) === requestedOn;
  if (!asked) throw new AppError(409, 'paymentsClient.approval.notAwaiting');
  const done = await app.db.transaction(async (tx) => {
    const [row] = await tx
      .update(transactions)
      .set({ confirmedByClientDate: new Date() })
      // Still the request read above (its link's hash names it): an office edit or a new link in between cancels this click.
      .where(and(eq(transactions.id, e.id), isNull(transactions.confirmedByClientDate), eq(transactions.approvalTokenHash, e.approvalTokenHash!)))
      .returning({ id: transactions.id });
    if (!row) return false;
    await touchPaymentAccount(tx, e.accountId);
    await logAction(tx, req.actor, { action: 'ApproveExpense', entity: 'Transaction', entityId: e.id, message: `#${e.id}`, data: { accountId: e.accountId, ...statementUsed(app, req, e) } });
    return true;
  });
  const now = await ownExpense(app, user, id);
  // Approved meanwhile from another device: what was asked is so.
  if (!done && !now.confirmedByClientDate) throw new AppError(409, 'paymentsClient.approval.notAwaiting');
  return answer(app, now, t);
}

/** POST /api/transactions/statement/revertApprovalExpense/{id}: the account's client reverts its approval, while allowed. */
export async function revertOwnApproval(app: FastifyInstance, req: FastifyRequest, id: number, t: T) {
  const user = req.user!;
  const e = await ownExpense(app, user, id);
  // Reverted already (from another device, or the link's page): answered as it is.
  if (!e.confirmedByClientDate) return answer(app, e, t);
  if (!canRevert(e)) throw new AppError(409, 'paymentsClient.approval.revertNotAllowed');
  const reverted = await app.db.transaction(async (tx) => {
    const [row] = await tx
      .update(transactions)
      .set({ confirmedByClientDate: null })
      .where(stillRevertible(e))
      .returning({ id: transactions.id });
    if (!row) return false;
    await touchPaymentAccount(tx, e.accountId);
    await logAction(tx, req.actor, {
      action: 'RevertExpenseApproval',
      entity: 'Transaction',
      entityId: e.id,
      message: `#${e.id}`,
      data: { accountId: e.accountId, approvedOn: toLocalDateTime(e.confirmedByClientDate, app.config.timeZone), ...statementUsed(app, req, e) },
    });
    return true;
  });
  if (!reverted) await refusedUnlessReverted(app, id);
  return answer(app, await ownExpense(app, user, id), t);
}

/**
 * Send for approval (office admins): a new link for this expense (an earlier one stops working), and
 * the mail to the account's client in the account's language. The token and the log row are one
 * transaction; the mail goes once they are committed.
 */
export async function sendForApproval(app: FastifyInstance, user: SessionUser, actor: Actor, id: number) {
  if (!canEditPayments(user)) throw accessDenied();
  const row = await requireReadableTransaction(app.db, user, id);
  if (row.type !== 'expense') throw new AppError(400, 'paymentsClient.approval.notExpense');
  if (row.confirmedByClientDate) throw new AppError(409, 'paymentsClient.approval.alreadyApproved');
  const to = await clientAddress(app.db, row.accountId);
  if (!to) throw new AppError(400, 'paymentsClient.approval.noEmail');
  const [account] = await app.db.select({ displayName: accounts.displayName, language: accounts.language }).from(accounts).where(eq(accounts.id, row.accountId)).limit(1);
  const token = newToken();
  const base = await paymentsLinkBase(app);
  await app.db.transaction(async (tx) => {
    await tx.update(transactions).set({ approvalTokenHash: tokenHash(token), approvalRequestedOn: new Date() }).where(eq(transactions.id, id));
    await touchPaymentAccount(tx, row.accountId);
    await logAction(tx, actor, { action: 'SendExpenseForApproval', entity: 'Transaction', entityId: id, message: to, data: { accountId: row.accountId, email: to, link: `${base}${approvalPath(id)}`, linkId: tokenHash(token).slice(0, 12) } });
  });
  // The account's language (English when it has none or another): the page the link opens speaks the same.
  const culture = cultureOf(signInLanguage(account?.language ?? null));
  const amount = money(row.amount);
  const { mail } = await buildMail(app, {
    to,
    accountId: row.accountId,
    culture,
    fallback: culture,
    agentUserId: actor.id,
    letter: MAIL_LETTERS.approval({
      link: `${base}${approvalPath(id)}?token=${token}`,
      days: APPROVAL_LINK_DAYS,
      amount,
      date: toLocalDateTime(row.transactionDate, app.config.timeZone)!.slice(0, 10).split('-').reverse().join('/'),
      categoryId: row.categoryId,
    }),
  });
  await app.mailer.send(mail);
  return to;
}
