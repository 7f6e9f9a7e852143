/**
 * Every resource's route table and screens, and the helpers to call and link them (decision 057).
 * Nothing here loads zod: the web imports this module; the schemas are typed in through type-only
 * imports.
 */
export * from './call.ts';
export { ACCOUNT } from './accounts.resource.ts';
export { ACTIVITY, ASSIGNMENT } from './activities.resource.ts';
export { ALERT, BACKUP, JOB } from './alerts.resource.ts';
export { SESSION } from './auth.resource.ts';
export { DEAL } from './deals.resource.ts';
export { DOCUMENT } from './documents.resource.ts';
export { DOC_TEMPLATE } from './doc-templates.resource.ts';
export { FIELD } from './fields.resource.ts';
export { FILE } from './files.resource.ts';
export { IMPORT } from './imports.resource.ts';
export { LEAD } from './leads.resource.ts';
export { MAIL, MAILBOX } from './mail.resource.ts';
export { LOCATION, OBJECT, OBJECT_ACCOUNT, OBJECT_KEY } from './objects.resource.ts';
export { MANDATE } from './mandates.resource.ts';
export { INVOICE } from './invoices.resource.ts';
export { PAYMENT_CLIENT } from './payments-client.resource.ts';
export { PAYMENT } from './payments.resource.ts';
export { PUBLIC_SITE, PUBLISHING } from './publishing.resource.ts';
export { REPORT } from './reports.resource.ts';
export { RESERVATION } from './reservations.resource.ts';
export { SETTINGS } from './settings.resource.ts';
export { HEALTH, SHELL } from './shell.resource.ts';
export { SHORTLIST } from './shortlists.resource.ts';
export { SIGN_REQUEST } from './signing.resource.ts';
export { VIEWING } from './viewings.resource.ts';
export { API_KEY, WEBHOOK } from './integrations.resource.ts';
export { PORTAL } from './portals.resource.ts';
export { CALENDAR_FEED } from './calendar-feeds.resource.ts';
export { CLIENT_MESSAGE } from './client-messages.resource.ts';
export { OWNER_REPORT } from './owner-reports.resource.ts';
