import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { startShippedTexts, texts } from './shipped-texts.testing.ts';
import { dealOpenedLogMessage, viewingArrangedLogMessage, wonLogMessage } from '@crm/contract/office-constants';

let logMessageText: typeof import('./log-texts.ts').logMessageText;
let logSummaryText: typeof import('./log-texts.ts').logSummaryText;

beforeAll(async () => {
  await startShippedTexts();
  ({ logMessageText, logSummaryText } = await import('./log-texts.ts'));
});

describe("the action log's messages the server writes", () => {
  it('reads a lead won by a closed deal in the reader’s language, with the deal’s number', async () => {
    const stored = wonLogMessage(12);
    const read = async (lng: string) => {
      await i18next.changeLanguage(lng);
      return logMessageText(i18next.t, 'Lead', stored);
    };
    expect(await read('en')).toBe('Won: deal #12 closed');
    expect(await read('el')).toBe('Κερδισμένο: ολοκληρώθηκε η συμφωνία #12');
    expect(await read('ru')).toBe('Заявка успешно закрыта: сделка № 12 завершена');
    // A message of the same words written by a person on another entity is shown as written.
    expect(logMessageText(i18next.t, 'Document', stored)).toBe(stored);
    await i18next.changeLanguage('en');
  });

  it('reads a lead moved on by a viewing arranged or a deal made for it, in the reader’s language, with the record’s number', async () => {
    const read = async (lng: string, stored: string) => {
      await i18next.changeLanguage(lng);
      return logMessageText(i18next.t, 'Lead', stored);
    };
    expect(await read('en', viewingArrangedLogMessage(31))).toBe('Viewing #31 arranged');
    expect(await read('el', viewingArrangedLogMessage(31))).toBe('Προγραμματίστηκε η υπόδειξη #31');
    expect(await read('ru', viewingArrangedLogMessage(31))).toBe('Назначен показ № 31');
    expect(await read('en', dealOpenedLogMessage(7))).toBe('Deal #7 opened');
    expect(await read('el', dealOpenedLogMessage(7))).toBe('Δημιουργήθηκε η συμφωνία #7');
    expect(await read('ru', dealOpenedLogMessage(7))).toBe('Открыта сделка № 7');
    expect(logMessageText(i18next.t, 'Document', dealOpenedLogMessage(7))).toBe('Deal #7 opened');
    await i18next.changeLanguage('en');
  });

  it('reads a deleted system alert in the reader’s language from its text key; a plain one as written', async () => {
    const data = { source: 'Website', messageKey: 'alerts.msg.websiteEnquiry', params: { ref: '0042', name: 'Maria K.', email: 'maria@example.gr' } };
    const english = 'New website enquiry about property #0042 from Maria K. (maria@example.gr); it is among the new leads.';
    await i18next.changeLanguage('el');
    const greek = logMessageText(i18next.t, 'Alert', english, data);
    expect(greek).toBe(texts('el')['alerts.msg.websiteEnquiry']!.replace('{{ref}}', '0042').replace('{{name}}', 'Maria K.').replace('{{email}}', 'maria@example.gr'));
    expect(greek).not.toBe(english);
    expect(logMessageText(i18next.t, 'Alert', 'A visitor asked about #0042', { source: 'Website' })).toBe('A visitor asked about #0042');
    // A failed job by the name the Jobs page gives it.
    const job = logMessageText(i18next.t, 'Alert', 'The background job "mail.send" failed', { messageKey: 'alerts.msg.jobFailed', params: { name: 'mail.send', attempts: 5, error: 'SMTP 550' } });
    expect(job).toContain(texts('el')['jobs.name.mail.send']!);
    expect(job).not.toContain('mail.send');
    // One the Jobs page explains (a backup's), without its technical message.
    const backup = logMessageText(i18next.t, 'Alert', 'The background job "backup.run" failed after 3 attempt(s).', { messageKey: 'alerts.msg.jobFailedExplained', params: { name: 'backup.run', attempts: 3 } });
    expect(backup).toBe(texts('el')['alerts.msg.jobFailedExplained']!.replace('{{name}}', texts('el')['jobs.name.backup.run']!).replace('{{attempts}}', '3'));
    // A rent reminder's day, kept as dd/mm/yyyy, as a Russian reader writes it.
    await i18next.changeLanguage('ru');
    const rent = logMessageText(i18next.t, 'Alert', 'Rent reminder', { messageKey: 'alerts.msg.rentDueIn', params: { tenant: 'Ivanov', ref: '0042', date: '05/12/2026', days: 3 } });
    expect(rent).toContain('05.12.2026');
    expect(rent).not.toContain('05/12/2026');
    // An overdue to-do's due day and time, kept as "dd/mm/yyyy, HH:MM": 26.11.2026, 14:15 in Russian, slashes in Greek.
    const todo = { messageKey: 'alerts.msg.todoOverdue', params: { what: 'Call the bank', date: '26/11/2026, 14:15', who: 'Ivanov' } };
    expect(logMessageText(i18next.t, 'Alert', 'Overdue to-do', todo)).toBe(texts('ru')['alerts.msg.todoOverdue']!.replace('{{date}}', '26.11.2026, 14:15').replace('{{who}}', 'Ivanov').replace('{{what}}', 'Call the bank'));
    await i18next.changeLanguage('el');
    expect(logMessageText(i18next.t, 'Alert', 'Overdue to-do', todo)).toContain('26/11/2026, 14:15');
    await i18next.changeLanguage('ru');
    await i18next.changeLanguage('el');
    // Only an alert's own text keys are read so: any other key in the data is not a message.
    expect(logMessageText(i18next.t, 'Alert', english, { messageKey: 'login.incorrect' })).toBe(english);
    await i18next.changeLanguage('en');
  });

  it("writes a booking's check-in day as the reader does, not as stored", async () => {
    await i18next.changeLanguage('ru');
    expect(logMessageText(i18next.t, 'Reservation', 'Schmidt Hans 2026-12-10')).toBe('Schmidt Hans 10.12.2026');
    await i18next.changeLanguage('el');
    expect(logMessageText(i18next.t, 'Reservation', 'Schmidt Hans 2026-12-10')).toBe('Schmidt Hans 10/12/2026');
    // Only a booking's: another record's text stays as written.
    expect(logMessageText(i18next.t, 'Document', 'Lease 2026-12-10')).toBe('Lease 2026-12-10');
  });

  it('names a field edited on its own by its label, not its stored name', async () => {
    await i18next.changeLanguage('el');
    expect(logMessageText(i18next.t, 'Object', 'salePrice')).toBe(texts('el')['fields.object.salePrice']);
    expect(logMessageText(i18next.t, 'Account', 'city')).toBe(texts('el')['accounts.ui.field.city']);
    expect(logMessageText(i18next.t, 'Object', 'salePrice', { field: 'salePrice', from: 1, to: 2 })).toBe(texts('el')['fields.object.salePrice']);
    // Words are words: a document named "new", an activity "done", an account entry whose data names no such field.
    expect(logMessageText(i18next.t, 'Document', 'new')).toBe('new');
    expect(logMessageText(i18next.t, 'Activity', 'done')).toBe('done');
    expect(logMessageText(i18next.t, 'Account', 'city', { keptId: 3 })).toBe('city');
    expect(logMessageText(i18next.t, 'Document', 'Μισθωτήριο 2026')).toBe('Μισθωτήριο 2026');
    await i18next.changeLanguage('en');
  });

  it('reads a transaction’s amount as money, and a fixed message by its text', async () => {
    await i18next.changeLanguage('el');
    expect(logMessageText(i18next.t, 'Transaction', 'expense 125.5')).toBe(texts('el')['actionLog.message.expense']!.replace('{{amount}}', '125,50\u00a0€'));
    expect(logMessageText(i18next.t, 'Object', 'Moved')).toBe(texts('el')['actionLog.message.Moved']);
    await i18next.changeLanguage('en');
  });

  it('sums up an edit without a message by the labels of what it changed, on the home page', async () => {
    await i18next.changeLanguage('el');
    expect(logSummaryText(i18next.t, 'Account', null, { city: 'Θεσσαλονίκη', notes: 'Καλεί μετά τις 6' })).toBe(`${texts('el')['accounts.ui.field.city']}, ${texts('el')['accounts.ui.field.notes']}`);
    const many = logSummaryText(i18next.t, 'Account', null, { city: 'a', notes: 'b', firstName: 'c', lastName: 'd' });
    expect(many.endsWith('…')).toBe(true);
    expect(many.split(', ')).toHaveLength(3);
    // A message is the summary; nothing at all stays empty.
    expect(logSummaryText(i18next.t, 'Document', 'Lease', { name: 'x' })).toBe('Lease');
    expect(logSummaryText(i18next.t, 'Account', null, undefined)).toBe('');
    await i18next.changeLanguage('en');
  });
});
