import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { and, eq, inArray } from 'drizzle-orm';
import {
  AttachmentState,
  FORM_DATA_FIELD_NAMES,
  TRANSACTION_FIELDS,
  TRANSACTION_RANGES,
  ZAttachmentStates,
  ZExpenseFormData,
  ZIncomeFormData,
  parseAmount,
  transactionDayBounds,
  transactionFieldsOf,
  type TTransactionFieldDescription,
  type TTransactionSaved,
  type TTransactionType,
} from '@crm/contract';
import type { Tx } from '../../db/client.ts';
import { accounts, transactionAttachments, transactions } from '../../db/schema/index.ts';
import { AppError, conflict, fieldError, notFound, requireVersion } from '../../lib/errors.ts';
import { logAction } from '../../lib/audit.ts';
import { agencyToday, fromLocalDateTime, toLocalDateTime } from '../../lib/dates.ts';
import { noteFilesToRemove, removeNotedFiles, writeStoredFiles } from '../../storage/pending-files.ts';
import { dropScratch, readUploadForm, type ReceivedFile } from '../../lib/upload-form.ts';
import { detectFileType } from '../files/file-types.ts';
import { isAccountObject, lockStatementOf, lockStatements, touchPaymentAccount, transactionColumns, transactionForm, type Caller, type T } from './payments.service.ts';


/** What a client approves in an expense (described as approval terms): changing any of these (or its files) withdraws the approval. */
const APPROVED_TERMS = TRANSACTION_FIELDS.filter((d) => 'approvalTerm' in d && d.approvalTerm).map((d) => d.name);

type FieldErrors = Record<string, { code: string; params?: Record<string, string | number> }[]>;

/** The form's fields checked against the contract: every problem, by field, with its message key. */
function checkFields(type: TTransactionType, fields: Record<string, string>, today: string) {
  const schema = type === 'income' ? ZIncomeFormData : ZExpenseFormData;
  const r = schema.safeParse(fields);
  const errors: FieldErrors = {};
  const add = (field: string, code: string, params?: Record<string, string | number>) => (errors[field] ??= []).push({ code, params });
  if (!r.success) {
    for (const issue of r.error.issues) {
      const field = String(issue.path[0] ?? 'request');
      const code =
        issue.message.startsWith('validation.') || issue.message.startsWith('payments.')
          ? issue.message
          : issue.code === 'too_big' && 'origin' in issue && issue.origin === 'string'
            ? 'validation.tooLong'
            : issue.code === 'invalid_type' && fields[field] === undefined
              ? 'validation.required'
              : issue.code === 'too_small' || issue.code === 'too_big'
                ? 'validation.choice'
                : 'validation.invalid';
      if (!errors[field]) add(field, code);
    }
    throw new AppError(400, 'errors.validation', {}, errors);
  }
  // Income is the smaller shape: the fields only an expense has are read through `described`.
  const data = r.data as ReturnType<typeof ZIncomeFormData.parse>;
  const described = r.data as Record<string, unknown>;
  // Every date within the ledger's days (1900 or 2206 is a typing slip), said with the days allowed.
  const bounds = transactionDayBounds(today);
  const dayText = (day: string) => day.split('-').reverse().join('/');
  for (const d of transactionFieldsOf(type)) {
    const v = described[d.name];
    if ((d.type !== 'date' && d.type !== 'date-time') || typeof v !== 'string') continue;
    const day = v.slice(0, 10);
    if (day < bounds.from || day > bounds.to) add(d.name, 'payments.dateOutOfRange', { from: dayText(bounds.from), to: dayText(bounds.to) });
  }
  for (const [from, to] of TRANSACTION_RANGES) {
    const a = described[from];
    const b = described[to];
    if (typeof a === 'string' && typeof b === 'string' && a > b) add(to, 'fields.dateOrder');
  }
  let states: { id: number; state: number }[] = [];
  if (data.attachments) {
    let json: unknown;
    try {
      json = JSON.parse(data.attachments);
    } catch {
      add('attachments', 'validation.invalid');
    }
    const s = ZAttachmentStates.safeParse(json);
    if (json !== undefined && !s.success) add('attachments', 'validation.invalid');
    if (s.success) states = s.data;
  }
  if (Object.keys(errors).length) throw new AppError(400, 'errors.validation', {}, errors);
  return { data, described, states };
}

/**
 * POST /api/transactions/addIncome|editIncome|addExpense|editExpense (form-data): creates or
 * changes the transaction with its attachments in one database transaction (new files stored first,
 * removed again if it fails; files of removed attachments deleted after the commit). An edit
 * carries the version it was based on: a stale one is a 409 with the current form.
 */
export async function saveTransaction(app: FastifyInstance, req: FastifyRequest, caller: Caller, type: TTransactionType, mode: 'add' | 'edit', t: T): Promise<TTransactionSaved> {
  let parsed: { fields: Record<string, string>; files: ReceivedFile[] } = { fields: {}, files: [] };
  try {
    const { requestMaxBytes, maxFiles } = app.config.upload;
    parsed = await readUploadForm(app, req, { fileMax: app.config.uploadMaxBytes, requestMax: requestMaxBytes, maxFiles, keepField: (name) => FORM_DATA_FIELD_NAMES.has(name), notMultipart: 'payments.notMultipart' });
    const { data, described, states } = checkFields(type, parsed.fields, agencyToday(app.config.timeZone));
    if (mode === 'edit' && data.id === undefined) throw fieldError('id', 'validation.required');
    if (mode === 'edit') requireVersion(data.version);
    if (mode === 'add' && data.accountId === undefined) throw fieldError('accountId', 'validation.required');
    if (parsed.files.length > app.config.upload.maxFiles) throw new AppError(413, 'files.tooMany', { max: app.config.upload.maxFiles });
    const values = storedValues(transactionFieldsOf(type), described, app.config.timeZone);
    const amount = values.amount as string;

    const typed: (ReceivedFile & { mime: string; systemName: string })[] = [];
    for (const f of parsed.files) {
      if (f.size === 0) throw new AppError(400, 'payments.emptyFile', { name: f.userName });
      const kind = await detectFileType(f.tmp, f.userName);
      if (!kind) throw new AppError(415, 'files.typeNotAllowed', { name: f.userName });
      typed.push({ ...f, mime: kind.mime, systemName: `${randomBytes(16).toString('hex')}.${kind.ext}` });
    }
    // The receipts written first, each named pending, claimed by the transaction's commit (decisions 104, 109).
    const { saved, removedFiles } = await writeStoredFiles(app, async (stored) => {
      await stored.note(typed.map((f) => f.systemName));
      for (const f of typed) await stored.put(f.systemName, { path: f.tmp });
      return stored.transaction(async (tx) => {
        let id: number;
        let accountId: number;
        let version: number;
        let removedFiles: string[] = [];
        let approvalWithdrawn = false;
        let requestCancelled = false;
        if (mode === 'add') {
          accountId = data.accountId!;
          await lockStatements(tx, [accountId]);
          const [a] = await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId)).for('update');
          if (!a) throw notFound('payments.accountNotFound');
          await requireAccountObject(tx, accountId, values.objectId, null);
          const [row] = await tx
            .insert(transactions)
            .values({ ...(values as TStoredValues), accountId, type, createdBy: caller.user.id, modifiedBy: caller.user.id })
            .returning({ id: transactions.id, version: transactions.version });
          id = row!.id;
          version = row!.version;
          await logAction(tx, caller.actor, { action: 'Create', entity: 'Transaction', entityId: id, message: `${type} ${amount}`, data: { accountId, type, ...localDates(values, app.config.timeZone), files: typed.map((f) => f.userName) } });
        } else {
          id = data.id!;
          await lockStatementOf(tx, id);
          const [current] = await tx.select(transactionColumns()).from(transactions).where(eq(transactions.id, id)).for('update');
          if (!current || current.type !== type) throw notFound('payments.notFound');
          accountId = current.accountId;
          if (current.version !== data.version) throw conflict(await transactionForm(app, tx, caller.user, type, id, t, req.culture));
          await requireAccountObject(tx, accountId, values.objectId, current.objectId);
          const removeIds = states.filter((s) => s.state === AttachmentState.Deleted).map((s) => s.id);
          if (removeIds.length) {
            const gone = await tx
              .delete(transactionAttachments)
              .where(and(eq(transactionAttachments.transactionId, id), inArray(transactionAttachments.id, removeIds)))
              .returning({ systemName: transactionAttachments.systemName, userName: transactionAttachments.userName });
            removedFiles = gone.map((g) => g.systemName);
            if (gone.length !== new Set(removeIds).size) throw fieldError('attachments', 'payments.attachmentNotFound');
            await noteFilesToRemove(tx, removedFiles);
          }
          const changes = changedValues(current as unknown as Record<string, unknown>, values);
          // The client approved this expense as it was: a change to what they approved withdraws the
          // approval (and the link that gave it), so it is asked for again. Paying it, or its notes, does not.
          // The same change while the client has the link but has not answered cancels the request: the
          // link showed them the old terms, and an Approve on a page loaded before the change must not
          // approve the new ones.
          const termsChanged = type === 'expense' && (APPROVED_TERMS.some((k) => k in changes) || removeIds.length > 0 || typed.length > 0);
          approvalWithdrawn = termsChanged && current.confirmedByClientDate !== null;
          requestCancelled = termsChanged && current.confirmedByClientDate === null && current.approvalTokenHash !== null;
          version = current.version + 1;
          await tx
            .update(transactions)
            .set({
              ...values,
              ...(approvalWithdrawn ? { confirmedByClientDate: null, approvalTokenHash: null, approvalRequestedOn: null } : {}),
              ...(requestCancelled ? { approvalTokenHash: null, approvalRequestedOn: null } : {}),
              version,
              modifiedOn: new Date(),
              modifiedBy: caller.user.id,
            })
            .where(eq(transactions.id, id));
          await logAction(tx, caller.actor, {
            action: 'Update',
            entity: 'Transaction',
            entityId: id,
            message: `${type} ${amount}`,
            data: {
              accountId,
              ...localDates(changes, app.config.timeZone),
              ...(removeIds.length ? { removedAttachments: removeIds } : {}),
              ...(typed.length ? { files: typed.map((f) => f.userName) } : {}),
              ...(approvalWithdrawn ? { approvalWithdrawn: toLocalDateTime(current.confirmedByClientDate, app.config.timeZone) } : {}),
              ...(requestCancelled ? { approvalRequestCancelled: toLocalDateTime(current.approvalRequestedOn, app.config.timeZone) } : {}),
            },
          });
        }
        await addAttachments(tx, id, caller.user.id, typed);
        await stored.claim(tx);
        await touchPaymentAccount(tx, accountId);
        return { saved: { id, accountId, version, ...(approvalWithdrawn ? { approvalWithdrawn } : {}), ...(requestCancelled ? { approvalRequestCancelled: true } : {}) }, removedFiles };
      });
    });
    await removeNotedFiles(app, removedFiles);
    return saved;
  } finally {
    await dropScratch(parsed.files);
  }
}

/**
 * The property an income or expense is tied to is one of the account's own (issue 45); the one it
 * already holds stays allowed (a property sold since keeps its rows). Another's is refused at the
 * field, inside the transaction, before anything is written.
 */
async function requireAccountObject(tx: Tx, accountId: number, objectId: unknown, held: number | null) {
  if (typeof objectId !== 'number' || objectId === held) return;
  if (!(await isAccountObject(tx, accountId, objectId))) throw fieldError('objectId', 'payments.objectNotAccounts');
}

type TStoredValues = Pick<typeof transactions.$inferInsert, 'amount' | 'transactionDate'>;

/**
 * The checked form-data of a kind's described fields as the table stores them: money as its
 * canonical text ("1200.10"), the date-time as the moment it names in the agency's zone, texts
 * trimmed (empty is null), the rest as checked. The fields the kind does not have are not written.
 */
function storedValues(fields: readonly TTransactionFieldDescription[], data: Record<string, unknown>, timeZone: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const d of fields) {
    const v = data[d.name];
    switch (d.type) {
      case 'money':
        out[d.name] = typeof v === 'string' ? (parseAmount(v) as { value: string }).value : null;
        break;
      case 'date-time':
        out[d.name] = typeof v === 'string' ? fromLocalDateTime(v, timeZone, d.name) : null;
        break;
      case 'text':
        out[d.name] = typeof v === 'string' ? v.trim().replace(/\s+/g, ' ') || null : null;
        break;
      case 'textarea':
        out[d.name] = typeof v === 'string' ? v.replace(/\r\n/g, '\n').trim() || null : null;
        break;
      case 'select':
      case 'date':
        out[d.name] = v ?? null;
        break;
    }
  }
  return out;
}

async function addAttachments(tx: Tx, transactionId: number, userId: number, files: { systemName: string; userName: string; mime: string; size: number }[]) {
  if (!files.length) return;
  await tx.insert(transactionAttachments).values(files.map((f) => ({ transactionId, systemName: f.systemName, userName: f.userName, mime: f.mime, size: f.size, createdBy: userId })));
}

/** A moment in the log is written as the agency's local date and time, as the statement shows it (JSON would write UTC). */
function localDates(values: Record<string, unknown>, timeZone: string): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v instanceof Date ? toLocalDateTime(v, timeZone) : v]));
}

function changedValues(current: Record<string, unknown>, next: Record<string, unknown>) {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(next)) {
    const a = current[k] instanceof Date ? (current[k] as Date).toISOString() : (current[k] ?? null);
    const b = v instanceof Date ? v.toISOString() : (v ?? null);
    if (a !== b) out[k] = v;
  }
  return out;
}
