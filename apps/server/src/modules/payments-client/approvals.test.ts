import { describe, expect, it, vi } from 'vitest';
import { and, desc, eq, sql } from 'drizzle-orm';
import { accounts, actionLog, transactions, users } from '../../db/schema/index.ts';
import { createTestApp, type Client } from '../../../test/harness.ts';
import { tokenHash } from './approvals.ts';

/** The client's approval of an expense through the mailed link, and what that link can never open. */
const t = await createTestApp({ PUBLIC_URL: 'https://crm.agency.test', PAYMENTS_HOST: 'pay.agency.test' });
const { app, db } = t;
const admin = await t.user({ roles: ['admin'] });
const agent = await t.user({ roles: ['employee'] });

let seq = 0;
async function newAccount(values: Partial<typeof accounts.$inferInsert> = {}) {
  seq++;
  const [a] = await db
    .insert(accounts)
    .values({ firstName: `Ελένη${seq}`, lastName: `Ιδιοκτήτρια${seq}`, hasTransactions: true, emails: [`owner${seq}@example.gr`], language: 'el', ...values })
    .returning({ id: accounts.id, displayName: accounts.displayName });
  return a!;
}
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
function form(fields: Record<string, string | number>, files: { name: string; data: Buffer; type?: string }[] = []) {
  const fd = new FormData();
  for (const [k, v] of Object.entries(fields)) fd.append(k, String(v));
  for (const f of files) fd.append('files', new Blob([new Uint8Array(f.data)], { type: f.type ?? 'application/pdf' }), f.name);
  return fd;
}
async function addExpense(accountId: number, fields: Record<string, string | number> = {}, files: { name: string; data: Buffer }[] = []) {
  const res = await admin.post('/api/transactions/addExpense', form({ accountId, amount: '1234.50', transactionDate: '2026-03-05T09:30:00', paymentMethod: 1, categoryId: 22, status: 0, ...fields }, files));
  expect(res.statusCode, res.body).toBe(200);
  return res.json().id as number;
}
const sendForApproval = (id: number, as: Client = admin) => as.post(`/api/transactions/sendExpenseForApproval/${id}`, undefined, { lang: 'en' });

/** The link of the newest approval mail to `to`: its expense id and token. */
async function lastLinkTo(to: string) {
  const body = await t.lastMailTo(to);
  const link = /https:\/\/pay\.agency\.test\/Payments\/ApproveExpense\/(\d+)\?token=([A-Za-z0-9_-]{43})/.exec(body);
  expect(link, body).not.toBeNull();
  return { id: Number(link![1]), token: link![2]!, body };
}
const view = (id: number, token: string, lang = 'en') => app.inject({ url: `/api/transactions/viewExpense/${id}?token=${token}`, headers: { 'accept-language': lang } });
const approve = (id: number, token: string) => app.inject({ method: 'POST', url: `/api/transactions/approveExpense/${id}?token=${token}`, headers: { 'user-agent': 'Test browser' } });
const revert = (id: number, token: string) => app.inject({ method: 'POST', url: `/api/transactions/revertApprovalExpense/${id}?token=${token}` });

/** The office edits expense `id`: the fields of addExpense's expense, with `fields` over them. */
const editExpense = (id: number, fields: Record<string, string | number>) =>
  admin.post('/api/transactions/editExpense', form({ id, amount: '1234.5', transactionDate: '2026-03-05T09:30:00', paymentMethod: 2, categoryId: 22, status: 0, ...fields }), { lang: 'en' });

describe('an expense sent for approval', () => {
  it('mails the client, in the account language, a link that opens that expense without sign-in; Approve and Revert are logged with the link', async () => {
    const owner = await newAccount();
    const id = await addExpense(owner.id, {}, [{ name: 'Τιμολόγιο υδραυλικού.pdf', data: PDF }]);
    const sent = await sendForApproval(id);
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().message).toBe(`Sent for approval to owner${seq}@example.gr`);
    const link = await lastLinkTo(`owner${seq}@example.gr`);
    expect(link.id).toBe(id);
    expect(link.body).toContain('1 234,50 €');
    expect(link.body).toContain('Το γραφείο σάς ζητά να ελέγξετε');
    // Only the hash is stored.
    const [row] = await db.select({ hash: transactions.approvalTokenHash, requested: transactions.approvalRequestedOn }).from(transactions).where(eq(transactions.id, id));
    expect(row!.hash).toBe(tokenHash(link.token));
    expect(row!.requested).not.toBeNull();

    const v = await view(id, link.token, 'el');
    expect(v.statusCode, v.body).toBe(200);
    // The page is told the mail's language (the account's), to speak it to a visitor who chose none.
    expect(v.json()).toMatchObject({ amount: '1234.50', categoryName: 'Ρεύμα', transactionDate: '2026-03-05T09:30:00', confirmedByClientDate: null, canRevertApproval: false, language: 'el' });
    const [file] = v.json().attachments;
    expect(file.name).toBe('Τιμολόγιο υδραυλικού.pdf');
    const f = await app.inject({ url: `/api/transactions/viewExpense/${id}/files/${file.id}?token=${link.token}` });
    expect(f.statusCode).toBe(200);
    expect(f.rawPayload.equals(PDF)).toBe(true);
    expect(f.headers['x-content-type-options']).toBe('nosniff');
    // By the address the page links to: the file's name its last part (the tab and the saved file take it).
    const named = await app.inject({ url: `/api/transactions/viewExpense/${id}/files/${file.id}/${encodeURIComponent(file.name)}?token=${link.token}` });
    expect(named.statusCode).toBe(200);
    expect(named.rawPayload.equals(PDF)).toBe(true);
    expect(named.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent(file.name)}`);
    expect((await app.inject({ url: `/api/transactions/viewExpense/${id}/files/${file.id}/${encodeURIComponent(file.name)}?token=${'B'.repeat(43)}` })).statusCode).toBe(404);

    const a = await approve(id, link.token);
    expect(a.statusCode, a.body).toBe(200);
    expect(a.json()).toMatchObject({ canRevertApproval: true });
    expect(a.json().confirmedByClientDate).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    // Approving again changes nothing.
    expect((await approve(id, link.token)).json().confirmedByClientDate).toBe(a.json().confirmedByClientDate);
    // The staff statement shows the approval date.
    const st = (await admin.get(`/api/transactions?accountId=${owner.id}`)).json();
    expect(st.items.find((i: { id: number }) => i.id === id).confirmedByClientDate).toBe(a.json().confirmedByClientDate);

    const r = await revert(id, link.token);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ confirmedByClientDate: null, canRevertApproval: false });
    // Reverted again (another device's page, a second tap): answered as it is, not "can no longer be reverted".
    const again = await revert(id, link.token);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json()).toMatchObject({ confirmedByClientDate: null, canRevertApproval: false });

    const logs = await db.select().from(actionLog).where(and(eq(actionLog.entity, 'Transaction'), eq(actionLog.entityId, id))).orderBy(desc(actionLog.id));
    const [rev, app1] = logs.filter((l) => l.action === 'RevertExpenseApproval' || l.action === 'ApproveExpense');
    expect(logs.filter((l) => l.action === 'ApproveExpense')).toHaveLength(1);
    expect(app1).toMatchObject({ action: 'ApproveExpense', actionBy: null, actionByName: owner.displayName });
    expect(app1!.data).toMatchObject({ accountId: owner.id, link: `https://pay.agency.test/Payments/ApproveExpense/${id}`, linkId: tokenHash(link.token).slice(0, 12), userAgent: 'Test browser' });
    expect((app1!.data as { time: string }).time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    expect(rev).toMatchObject({ action: 'RevertExpenseApproval' });
    expect(JSON.stringify(logs)).not.toContain(link.token);
    expect(logs.some((l) => l.action === 'SendExpenseForApproval' && l.actionBy === admin.id)).toBe(true);
  });

  it('cannot be opened with a guessed, altered, old or another expense\'s token, nor reach another expense\'s files', async () => {
    const owner = await newAccount();
    const one = await addExpense(owner.id, {}, [{ name: 'a.pdf', data: PDF }]);
    const two = await addExpense(owner.id, {}, [{ name: 'b.pdf', data: PDF }]);
    await sendForApproval(one);
    const l1 = await lastLinkTo(`owner${seq}@example.gr`);
    await sendForApproval(two);
    const l2 = await lastLinkTo(`owner${seq}@example.gr`);
    // The link of one expense opens no other.
    for (const res of [await view(two, l1.token), await approve(two, l1.token), await revert(two, l1.token), await view(one, l2.token)]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().title).toMatch(/not valid or has expired/);
    }
    const fileOfTwo = (await view(two, l2.token)).json().attachments[0].id;
    expect((await app.inject({ url: `/api/transactions/viewExpense/${one}/files/${fileOfTwo}?token=${l1.token}` })).statusCode).toBe(404);
    // Altered or guessed.
    const altered = (l1.token[0] === 'A' ? 'B' : 'A') + l1.token.slice(1);
    expect((await view(one, altered)).statusCode).toBe(404);
    expect((await view(one, 'x'.repeat(43))).statusCode).toBe(404);
    // Malformed: a translated 400, nothing changes.
    expect((await view(one, 'short')).statusCode).toBe(400);
    expect((await app.inject({ url: `/api/transactions/viewExpense/${one}` })).statusCode).toBe(400);
    expect((await approve(2 ** 31, l1.token)).statusCode).toBe(400);
    // Sent again: the earlier link stops working.
    await sendForApproval(one);
    const l3 = await lastLinkTo(`owner${seq}@example.gr`);
    expect((await view(one, l1.token)).statusCode).toBe(404);
    expect((await view(one, l3.token)).statusCode).toBe(200);
    // Nothing was approved by the refused calls.
    const rows = await db.select({ c: transactions.confirmedByClientDate }).from(transactions).where(eq(transactions.accountId, owner.id));
    expect(rows.every((r) => r.c === null)).toBe(true);
  });

  it('expires, and cannot be reverted once paid', async () => {
    const owner = await newAccount();
    const id = await addExpense(owner.id);
    await sendForApproval(id);
    const l = await lastLinkTo(`owner${seq}@example.gr`);
    await approve(id, l.token);
    await db.update(transactions).set({ status: 1 }).where(eq(transactions.id, id));
    expect((await view(id, l.token)).json().canRevertApproval).toBe(false);
    const r = await revert(id, l.token);
    expect(r.statusCode).toBe(409);
    expect(r.json().title).toMatch(/can no longer be reverted/);
    await db.update(transactions).set({ approvalRequestedOn: new Date(Date.now() - 31 * 24 * 3600 * 1000) }).where(eq(transactions.id, id));
    expect((await view(id, l.token)).statusCode).toBe(404);
  });

  it('stays when the office pays it or edits its notes, and is withdrawn (with its link) when the office changes what was approved', async () => {
    const owner = await newAccount();
    const id = await addExpense(owner.id);
    await sendForApproval(id);
    const l = await lastLinkTo(`owner${seq}@example.gr`);
    expect((await approve(id, l.token)).statusCode).toBe(200);
    const edit = (fields: Record<string, string | number>) => editExpense(id, fields);
    const approvedOn = async () => (await db.select().from(transactions).where(eq(transactions.id, id)))[0]!;

    // Paid, by another method, with a note: the same amount, date and category as approved.
    const paid = await edit({ version: 1, status: 1, paymentDate: '2026-03-20', internalNotes: 'Paid by transfer' });
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json().approvalWithdrawn).toBeUndefined();
    expect((await approvedOn()).confirmedByClientDate).not.toBeNull();
    expect((await view(id, l.token)).json().confirmedByClientDate).not.toBeNull();

    // A different amount is not what the client approved.
    const changed = await edit({ version: 2, amount: '1500', status: 1, paymentDate: '2026-03-20', internalNotes: 'Paid by transfer' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ id, version: 3, approvalWithdrawn: true });
    const row = await approvedOn();
    expect(row).toMatchObject({ confirmedByClientDate: null, approvalTokenHash: null, approvalRequestedOn: null });
    // The old link opens nothing; the form offers Send for approval again; the log says what happened.
    expect((await view(id, l.token)).statusCode).toBe(404);
    expect((await approve(id, l.token)).statusCode).toBe(404);
    const form2 = (await admin.get(`/api/transactions/editExpense/${id}`)).json();
    expect(form2.confirmedByClientDate ?? null).toBeNull();
    const [logged] = await db.select().from(actionLog).where(and(eq(actionLog.entity, 'Transaction'), eq(actionLog.entityId, id), eq(actionLog.action, 'Update'))).orderBy(desc(actionLog.id)).limit(1);
    expect(logged!.data).toMatchObject({ amount: '1500.00', approvalWithdrawn: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/) });
  });

  it('cancels a request the client has not answered when the office changes what it asks them to approve', async () => {
    const owner = await newAccount();
    const id = await addExpense(owner.id);
    await sendForApproval(id);
    const l = await lastLinkTo(`owner${seq}@example.gr`);
    // The client has the page open (the mailed terms) when the office changes the amount.
    expect((await view(id, l.token)).statusCode).toBe(200);
    const edit = (fields: Record<string, string | number>) => editExpense(id, fields);
    // A note is not a term: the request stands.
    const noted = await edit({ version: 1, internalNotes: 'Called the client' });
    expect(noted.statusCode, noted.body).toBe(200);
    expect(noted.json().approvalRequestCancelled).toBeUndefined();
    expect((await view(id, l.token)).statusCode).toBe(200);
    const changed = await edit({ version: 2, amount: '5000', internalNotes: 'Called the client' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ id, version: 3, approvalRequestCancelled: true });
    expect(changed.json().approvalWithdrawn).toBeUndefined();
    // Approve on the page loaded before the change approves nothing.
    expect((await approve(id, l.token)).statusCode).toBe(404);
    const [row] = await db.select().from(transactions).where(eq(transactions.id, id));
    expect(row).toMatchObject({ confirmedByClientDate: null, approvalTokenHash: null, approvalRequestedOn: null });
    expect(Number(row!.amount)).toBe(5000);
    const [logged] = await db.select().from(actionLog).where(and(eq(actionLog.entity, 'Transaction'), eq(actionLog.entityId, id), eq(actionLog.action, 'Update'))).orderBy(desc(actionLog.id)).limit(1);
    expect(logged!.data).toMatchObject({ amount: '5000.00', approvalRequestCancelled: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/) });
    // Sent again, the new link shows and approves the new amount.
    await sendForApproval(id);
    const again = await lastLinkTo(`owner${seq}@example.gr`);
    const approved = await approve(id, again.token);
    expect(approved.statusCode).toBe(200);
    expect(approved.json()).toMatchObject({ amount: '5000.00' });
  });

  it('is sent by office admins only, for an unapproved expense of an account with an e-mail', async () => {
    const owner = await newAccount();
    const id = await addExpense(owner.id);
    expect((await sendForApproval(id, agent)).statusCode).toBe(403);
    expect((await app.inject({ method: 'POST', url: `/api/transactions/sendExpenseForApproval/${id}` })).statusCode).toBe(401);
    const income = await admin.post('/api/transactions/addIncome', form({ accountId: owner.id, amount: '10.00', transactionDate: '2026-03-05T09:30:00', paymentMethod: 1, categoryId: 1 }));
    const notExpense = await sendForApproval(income.json().id);
    expect(notExpense.statusCode).toBe(400);
    const noMail = await newAccount({ emails: [] });
    const r = await sendForApproval(await addExpense(noMail.id));
    expect(r.statusCode).toBe(400);
    expect(r.json().title).toMatch(/no e-mail/);
    expect((await sendForApproval(999999)).statusCode).toBe(404);
    await sendForApproval(id);
    await approve(id, (await lastLinkTo(`owner${seq - 1}@example.gr`)).token);
    expect((await sendForApproval(id)).statusCode).toBe(409);
  });

  it('tells the page the language its mail was written in: the account\'s, English for another, none without one', async () => {
    for (const [language, mailed, page] of [
      ['ru', 'Агентство просит вас', 'ru'],
      [' RU ', 'Агентство просит вас', 'ru'],
      ['de', 'The agency asks you', 'en-UK'],
      [null, 'The agency asks you', null],
    ] as const) {
      const owner = await newAccount({ language });
      const id = await addExpense(owner.id);
      await sendForApproval(id);
      const link = await lastLinkTo(`owner${seq}@example.gr`);
      expect(link.body).toContain(mailed);
      expect((await view(id, link.token)).json().language, String(language)).toBe(page);
    }
  });

  it('goes to the client\'s sign-in e-mail when it has one', async () => {
    const owner = await newAccount();
    const u = await t.user({ roles: ['clientPayments'], email: `signin${seq}@example.gr` });
    await db.update(users).set({ accountId: owner.id }).where(eq(users.id, u.id));
    const id = await addExpense(owner.id);
    expect((await sendForApproval(id)).json().message).toBe(`Sent for approval to signin${seq}@example.gr`);
    expect((await lastLinkTo(`signin${seq}@example.gr`)).id).toBe(id);
  });
});

describe('an expense sent for approval, answered on the client\'s own statement', () => {
  /** The account's own payments client (a clientPayments sign-in of the account). */
  async function clientOf(accountId: number, roles: ('clientPayments' | 'employee')[] = ['clientPayments']) {
    const u = await t.user({ roles });
    await db.update(users).set({ accountId }).where(eq(users.id, u.id));
    return u;
  }
  const statement = (accountId: number, as: Client) => as.get(`/api/transactions?accountId=${accountId}`, { lang: 'en' });
  const itemOf = async (accountId: number, id: number, as: Client) => (await statement(accountId, as)).json().items.find((i: { id: number }) => i.id === id);
  const approveOn = (id: number, as: Client, requestedOn: string) =>
    as.post(`/api/transactions/statement/approveExpense/${id}`, { requestedOn }, { lang: 'en', headers: { 'user-agent': 'Owner phone' } });
  const revertOn = (id: number, as: Client) => as.post(`/api/transactions/statement/revertApprovalExpense/${id}`, undefined, { lang: 'en' });
  const confirmed = async (id: number) => (await db.select({ c: transactions.confirmedByClientDate }).from(transactions).where(eq(transactions.id, id)))[0]!.c;

  it('is approved and reverted there by the account\'s client, by the same rules as the link, and logged by its sign-in', async () => {
    const owner = await newAccount();
    const me = await clientOf(owner.id);
    const id = await addExpense(owner.id);
    const notSent = await addExpense(owner.id, { amount: '10' });
    await sendForApproval(id);

    // The client's statement offers it; the staff's does not (staff never approve for the client).
    const st = (await statement(owner.id, me)).json();
    expect(st.canApprove).toBe(true);
    expect((await statement(owner.id, admin)).json().canApprove).toBe(false);
    const item = st.items.find((i: { id: number }) => i.id === id);
    expect(item).toMatchObject({ confirmedByClientDate: null, canRevertApproval: false });
    expect(item.approvalRequestedOn).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);

    // Only the request the statement showed, and only one the office sent.
    const stale = await approveOn(id, me, '2026-01-01T10:00:00');
    expect(stale.statusCode, stale.body).toBe(409);
    expect(stale.json().title).toBe('This expense no longer waits for your approval: the agency has changed it or sent it again. The statement now shows it as it is.');
    expect((await approveOn(notSent, me, item.approvalRequestedOn)).statusCode).toBe(409);
    expect(await confirmed(id)).toBeNull();
    expect(await confirmed(notSent)).toBeNull();

    const a = await approveOn(id, me, item.approvalRequestedOn);
    expect(a.statusCode, a.body).toBe(200);
    expect(a.json()).toMatchObject({ amount: '1234.50', categoryName: 'Electricity', canRevertApproval: true });
    expect(a.json().confirmedByClientDate).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    expect(await confirmed(id)).not.toBeNull();
    expect(await itemOf(owner.id, id, me)).toMatchObject({ confirmedByClientDate: a.json().confirmedByClientDate, canRevertApproval: true });
    // Approving again (a second tap, another device) changes nothing.
    expect((await approveOn(id, me, item.approvalRequestedOn)).json().confirmedByClientDate).toBe(a.json().confirmedByClientDate);

    const r = await revertOn(id, me);
    expect(r.statusCode, r.body).toBe(200);
    expect(r.json()).toMatchObject({ confirmedByClientDate: null, canRevertApproval: false });
    expect(await confirmed(id)).toBeNull();
    expect((await revertOn(id, me)).statusCode).toBe(200);
    // The request stands: it is awaiting again, and approved again.
    expect((await itemOf(owner.id, id, me)).approvalRequestedOn).toBe(item.approvalRequestedOn);
    expect((await approveOn(id, me, item.approvalRequestedOn)).statusCode).toBe(200);

    const logs = await db.select().from(actionLog).where(and(eq(actionLog.entity, 'Transaction'), eq(actionLog.entityId, id))).orderBy(actionLog.id);
    const answers = logs.filter((l) => l.action === 'ApproveExpense' || l.action === 'RevertExpenseApproval');
    expect(answers.map((l) => l.action)).toEqual(['ApproveExpense', 'RevertExpenseApproval', 'ApproveExpense']);
    expect(answers[0]).toMatchObject({ actionBy: me.id });
    expect(answers[0]!.data).toMatchObject({ accountId: owner.id, linkSentOn: item.approvalRequestedOn, userAgent: 'Owner phone' });

    // Paid: the approval can no longer be reverted, here as on the link's page.
    await db.update(transactions).set({ status: 1 }).where(eq(transactions.id, id));
    expect((await itemOf(owner.id, id, me)).canRevertApproval).toBe(false);
    const late = await revertOn(id, me);
    expect(late.statusCode).toBe(409);
    expect(late.json().title).toMatch(/can no longer be reverted/);
    expect(await confirmed(id)).not.toBeNull();
  });

  it('keeps the approval of an expense the office marks paid while the client taps Revert', async () => {
    const owner = await newAccount();
    const me = await clientOf(owner.id);
    const id = await addExpense(owner.id);
    await sendForApproval(id);
    const requestedOn = (await itemOf(owner.id, id, me)).approvalRequestedOn as string;
    expect((await approveOn(id, me, requestedOn)).statusCode).toBe(200);
    const approvedOn = await confirmed(id);

    // The office's save holds the row; the client's Revert reads it unpaid (before that save commits)
    // and reaches its UPDATE, which waits. Once the save commits, the revert must see it paid.
    let tapped: ReturnType<typeof revertOn> | undefined;
    await db.transaction(async (tx) => {
      await tx.update(transactions).set({ status: 1 }).where(eq(transactions.id, id));
      tapped = revertOn(id, me);
      await vi.waitFor(
        async () => {
          const [w] = (await db.execute(sql`select count(*)::int as n from pg_locks where not granted and locktype = 'transactionid'`)).rows as { n: number }[];
          expect(w!.n, 'the revert waits for the save').toBeGreaterThan(0);
        },
        { timeout: 5000, interval: 25 },
      );
    });
    const r = await tapped!;
    expect(r.statusCode, r.body).toBe(409);
    expect(r.json().title).toMatch(/can no longer be reverted/);
    expect(await confirmed(id)).toEqual(approvedOn);
    expect(await itemOf(owner.id, id, me)).toMatchObject({ confirmedByClientDate: expect.any(String), canRevertApproval: false });
  });

  it('is refused to staff, to another account\'s client, and once the office has changed what it asked', async () => {
    const owner = await newAccount();
    const other = await newAccount();
    const me = await clientOf(owner.id);
    const stranger = await clientOf(other.id);
    // A colleague who is also a payments client (of their own account) approves nothing of this one.
    const colleague = await clientOf(other.id, ['employee', 'clientPayments']);
    const id = await addExpense(owner.id);
    await sendForApproval(id);
    // Asked a minute ago: the office's second request below is another moment.
    await db.update(transactions).set({ approvalRequestedOn: sql`approval_requested_on - interval '1 minute'` }).where(eq(transactions.id, id));
    const requestedOn = (await itemOf(owner.id, id, me)).approvalRequestedOn as string;
    for (const who of [admin, agent]) {
      expect((await approveOn(id, who, requestedOn)).statusCode).toBe(403);
      expect((await revertOn(id, who)).statusCode).toBe(403);
    }
    for (const who of [stranger, colleague]) {
      const res = await approveOn(id, who, requestedOn);
      expect(res.statusCode).toBe(403);
      expect(res.body).not.toContain('1234');
      expect((await revertOn(id, who)).statusCode).toBe(403);
    }
    // Unknown ids are refused alike: a client cannot probe which exist.
    expect((await approveOn(2147483000, me, requestedOn)).statusCode).toBe(403);
    expect((await app.inject({ method: 'POST', url: `/api/transactions/statement/approveExpense/${id}`, payload: { requestedOn } })).statusCode).toBe(401);
    expect((await approveOn(id, me, 'yesterday')).statusCode).toBe(400);
    expect(await confirmed(id)).toBeNull();

    // The office changes the amount (the request is cancelled), then sends it again: the statement
    // loaded before either approves nothing; the new request is approved.
    expect((await editExpense(id, { version: 1, amount: '2000' })).json().approvalRequestCancelled).toBe(true);
    expect((await approveOn(id, me, requestedOn)).statusCode).toBe(409);
    expect((await itemOf(owner.id, id, me)).approvalRequestedOn).toBeNull();
    await sendForApproval(id);
    expect((await approveOn(id, me, requestedOn)).statusCode).toBe(409);
    expect(await confirmed(id)).toBeNull();
    const now = (await itemOf(owner.id, id, me)).approvalRequestedOn as string;
    const ok = await approveOn(id, me, now);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().amount).toBe('2000.00');
  });
});
