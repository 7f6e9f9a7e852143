import type { FetchQueryOptions } from '@tanstack/react-query';
import {
  UNSAFE_createBrowserHistory as createBrowserHistory,
  UNSAFE_createRouter as createRouter,
  UNSAFE_hydrationRouteProperties as hydrationRouteProperties,
  UNSAFE_mapRouteProperties as mapRouteProperties,
  type LoaderFunctionArgs,
  type RouteObject,
} from 'react-router';
import { LinkKind } from '@crm/contract/constants';
import { ClientRedirect } from '../components/client-only.tsx';
import { hasBranch, isAdmin, sessionStore } from '../lib/session.ts';
import { allowedInPaymentsApp, isPaymentsClientOnly } from '../lib/variant.ts';
import { RequireAuth, RedirectHome } from './guards.tsx';
import { ComingSoon } from './coming-soon.tsx';
import { NotFound } from './not-found.tsx';
import { LoginPage } from '../features/auth/pages/login-page.tsx';
import { accountViewQuery } from '../features/accounts/api/account.ts';
import { OBJECTS, objectViewQuery, validIdOrRef } from '../features/objects/api/objects.ts';
import { KEYS, objectKeyQuery } from '../features/objects/api/object-keys.ts';
import { homeQuery, homeTodayQuery } from './home/home-api.ts';
import { assignmentsQuery } from '../components/activities/api.ts';
import { recordFilesQuery } from '../components/record-files-query.ts';
import { ACCOUNTS, CLIENTS, EMPLOYES, OWNERS, PARTNERS, SOURCES, SPECIALISTS } from '../features/accounts/api/account-lists.ts';
import { LEADS, leadQuery } from '../features/leads/api/leads.ts';
import { DEALS, dealBoardFirst, dealQuery } from '../features/deals/api/deals.ts';
import { VIEWINGS, viewingQuery } from '../features/viewings/api/viewings.ts';
import { calendarFirstQuery } from '../features/viewings/api/calendar-days.ts';
import { RESERVATIONS, availabilityFirstQuery, reservationQuery } from '../features/reservations/api/reservations.ts';
import { PAYMENTS, statementFirstPage } from '../features/payments/api/payments.ts';
import { ALERTS, alertQuery } from '../features/alerts/api/alerts.ts';
import { DOCUMENTS, documentQuery } from '../features/documents/api/documents.ts';
import { resultsFirst } from './reports/results-api.ts';
import { ACTION_LOG } from '../features/settings/api/settings.ts';
import { firstPageOf, prefetching } from './prefetch.ts';
import type { RouteHandle } from '../lib/route-handle.ts';

export type { RouteHandle };


/** Screens that later releases replace; the shell shows a clear "coming soon" page meanwhile. */
const soon = (path: string, title: string, extra: Partial<RouteHandle> = {}): RouteObject => ({
  path,
  element: <ComingSoon />,
  handle: { title, ...extra } satisfies RouteHandle,
});

/**
 * The shells' rules (layout.tsx, payments-layout.tsx): branch users do not open office screens, only
 * admins open admin ones, and a payments client opens its own statement only.
 */
const mayOpen = (h: Partial<RouteHandle>, pathname: string) => {
  const s = sessionStore.get();
  if (isPaymentsClientOnly(s)) return allowedInPaymentsApp(s, pathname);
  return !((h.noBranch && hasBranch(s)) || (h.adminOnly && !isAdmin(s)));
};

const lazyPage = (
  path: string,
  title: string,
  load: () => Promise<{ Component: React.ComponentType }>,
  extra: Partial<RouteHandle> = {},
  loader?: (args: LoaderFunctionArgs) => unknown,
): RouteObject => ({
  path,
  lazy: load,
  // A screen the reader may not open (the shell says so) asks for nothing.
  ...(loader ? { loader: (args: LoaderFunctionArgs) => (mayOpen(extra, new URL(args.request.url).pathname) ? loader(args) : null) } : {}),
  handle: { title, ...extra } satisfies RouteHandle,
});

/** A property in view mode, by id or reference: the property (photos, map and owners are in it), and its assignments. */
const objectViewData = prefetching(({ params }) => {
  const idOrRef = params.id ?? '';
  if (Number(params.viewMode ?? 0) !== 0 || !validIdOrRef(idOrRef)) return [];
  return [objectViewQuery(idOrRef), ...(/^\d+$/.test(idOrRef) ? [assignmentsQuery('object', Number(idOrRef))] : [])];
});
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type RecordQuery = (id: number) => FetchQueryOptions<any, any, any, any>;
/** The record the address names (`:id`), when it is an id at all ("new", "abc" ask for nothing): what `queries` ask of it. */
const recordIds = ({ params }: LoaderFunctionArgs, queries: (id: number) => ReturnType<RecordQuery>[]) => {
  const id = Number(params.id);
  return Number.isInteger(id) && id > 0 && id < 2 ** 31 ? queries(id) : [];
};
/** A record opened to be read (/Deals/{id}, /Alerts/{id}…): its record. Edit addresses read afresh. */
const recordViewData = (query: RecordQuery) => prefetching((args) => recordIds(args, (id) => [query(id)]));
/** A record in view mode (`:viewMode` 0 or none) whose screen reads more beside it: what `queries` ask of it. */
const viewModeData = (queries: (id: number) => ReturnType<RecordQuery>[]) => prefetching((args) => (Number(args.params.viewMode ?? 0) !== 0 ? [] : recordIds(args, queries)));
/** An account: its details, assignments and files; a lead: the lead and its assignments. */
const accountViewData = viewModeData((id) => [accountViewQuery(id), assignmentsQuery('account', id), recordFilesQuery(LinkKind.Account, id)]);
const leadViewData = viewModeData((id) => [leadQuery(id), assignmentsQuery('lead', id)]);

const accountPages = {
  OwnersPage: () => import('../features/accounts/pages/owners-page.tsx').then((m) => ({ Component: m.OwnersPage })),
  ClientsPage: () => import('../features/accounts/pages/clients-page.tsx').then((m) => ({ Component: m.ClientsPage })),
  PartnersPage: () => import('../features/accounts/pages/partners-page.tsx').then((m) => ({ Component: m.PartnersPage })),
  SpecialistsPage: () => import('../features/accounts/pages/specialists-page.tsx').then((m) => ({ Component: m.SpecialistsPage })),
  EmployesPage: () => import('../features/accounts/pages/employes-page.tsx').then((m) => ({ Component: m.EmployesPage })),
  SourcesPage: () => import('../features/accounts/pages/sources-page.tsx').then((m) => ({ Component: m.SourcesPage })),
  AccountsPage: () => import('../features/accounts/pages/accounts-page.tsx').then((m) => ({ Component: m.AccountsPage })),
  AccountAddPage: () => import('../features/accounts/pages/account-add-page.tsx').then((m) => ({ Component: m.AccountAddPage })),
  AccountViewPage: () => import('../features/accounts/pages/account-view-page.tsx').then((m) => ({ Component: m.AccountViewPage })),
  AccountMergePage: () => import('../features/accounts/pages/account-merge-page.tsx').then((m) => ({ Component: m.AccountMergePage })),
  EmployeRolePage: () => import('../features/accounts/pages/employe-role-page.tsx').then((m) => ({ Component: m.EmployeRolePage })),
  SetPasswordPage: () => import('../features/accounts/pages/set-password-page.tsx').then((m) => ({ Component: m.SetPasswordPage })),
};

const objectPages = {
  ObjectsPage: () => import('../features/objects/pages/objects-page.tsx').then((m) => ({ Component: m.ObjectsPage })),
  ObjectAddPage: () => import('../features/objects/pages/object-add-page.tsx').then((m) => ({ Component: m.ObjectAddPage })),
  ObjectViewPage: () => import('../features/objects/pages/object-view-page.tsx').then((m) => ({ Component: m.ObjectViewPage })),
};

const leadPages = {
  LeadsPage: () => import('../features/leads/pages/leads-page.tsx').then((m) => ({ Component: m.LeadsPage })),
  LeadAddPage: () => import('../features/leads/pages/lead-add-page.tsx').then((m) => ({ Component: m.LeadAddPage })),
  LeadViewPage: () => import('./screens/lead-view-page.tsx').then((m) => ({ Component: m.LeadViewPage })),
};

const viewingPages = {
  ViewingsPage: () => import('../features/viewings/pages/viewings-page.tsx').then((m) => ({ Component: m.ViewingsPage })),
  ViewingPage: () => import('../features/viewings/pages/viewing-page.tsx').then((m) => ({ Component: m.ViewingPage })),
  CalendarPage: () => import('../features/viewings/pages/calendar-page.tsx').then((m) => ({ Component: m.CalendarPage })),
  ViewingSheetPage: () => import('../features/viewings/pages/viewing-sheet-page.tsx').then((m) => ({ Component: m.ViewingSheetPage })),
};
const reservationPages = {
  ReservationsPage: () => import('../features/reservations/pages/reservations-page.tsx').then((m) => ({ Component: m.ReservationsPage })),
  ReservationPage: () => import('../features/reservations/pages/reservation-page.tsx').then((m) => ({ Component: m.ReservationPage })),
  AvailabilityPage: () => import('../features/reservations/pages/availability-page.tsx').then((m) => ({ Component: m.AvailabilityPage })),
};

const officePages = {
  DocumentsPage: () => import('../features/documents/pages/documents-page.tsx').then((m) => ({ Component: m.DocumentsPage })),
  DocumentPage: () => import('../features/documents/pages/document-page.tsx').then((m) => ({ Component: m.DocumentPage })),
  SettingsPage: () => import('../features/settings/pages/settings-page.tsx').then((m) => ({ Component: m.SettingsPage })),
  SetupPage: () => import('../features/settings/pages/setup-page.tsx').then((m) => ({ Component: m.SetupPage })),
  DocTemplatesPage: () => import('../features/settings/pages/doc-templates-page.tsx').then((m) => ({ Component: m.DocTemplatesPage })),
  ActionLogPage: () => import('../features/settings/pages/action-log-page.tsx').then((m) => ({ Component: m.ActionLogPage })),
  JobsPage: () => import('../features/settings/pages/jobs-page.tsx').then((m) => ({ Component: m.JobsPage })),
  ImportPage: () => import('../features/imports/pages/import-page.tsx').then((m) => ({ Component: m.ImportPage })),
  ApiKeysPage: () => import('../features/integrations/pages/api-keys-page.tsx').then((m) => ({ Component: m.ApiKeysPage })),
  WebhooksPage: () => import('../features/integrations/pages/webhooks-page.tsx').then((m) => ({ Component: m.WebhooksPage })),
  MailboxesPage: () => import('../features/mail/pages/mailboxes-page.tsx').then((m) => ({ Component: m.MailboxesPage })),
  CalendarFeedPage: () => import('../features/calendar-feed/pages/calendar-feed-page.tsx').then((m) => ({ Component: m.CalendarFeedPage })),
};

const paymentPages = {
  PaymentsPage: () => import('../features/payments/pages/payments-page.tsx').then((m) => ({ Component: m.PaymentsPage })),
  StatementPage: () => import('../features/payments/pages/statement-page.tsx').then((m) => ({ Component: m.StatementPage })),
  IncomePage: () => import('../features/payments/pages/transaction-page.tsx').then((m) => ({ Component: m.IncomePage })),
  ExpensePage: () => import('../features/payments/pages/transaction-page.tsx').then((m) => ({ Component: m.ExpensePage })),
};

const dealPages = {
  DealsPage: () => import('../features/deals/pages/deals-page.tsx').then((m) => ({ Component: m.DealsPage })),
  DealsBoardPage: () => import('../features/deals/pages/deals-board-page.tsx').then((m) => ({ Component: m.DealsBoardPage })),
  DealPage: () => import('../features/deals/pages/deal-page.tsx').then((m) => ({ Component: m.DealPage })),
};

/** The route table of the spec (document 001, 2.1), in one place. */
export const protectedRoutes: RouteObject[] = [
  lazyPage('/CRM', 'title.home', () => import('./home/home-page.tsx').then((m) => ({ Component: m.HomePage })), {}, prefetching(() => [homeQuery(), homeTodayQuery(sessionStore.get())])),
  soon('/Test', 'title.home'),
  // Objects and keys
  lazyPage('/Objects', 'title.objects', objectPages.ObjectsPage, {}, firstPageOf(OBJECTS)),
  lazyPage('/Objects/Add/:ownerId?', 'title.objectAdd', objectPages.ObjectAddPage),
  lazyPage('/Objects/Search', 'title.objectSearch', () => import('../features/objects/pages/object-search-page.tsx').then((m) => ({ Component: m.ObjectSearchPage }))),
  lazyPage('/Objects/Sheet/:id', 'title.objectSheet', () => import('../features/objects/sheet/object-sheet-page.tsx').then((m) => ({ Component: m.ObjectSheetPage }))),
  lazyPage('/Objects/View', 'title.object', objectPages.ObjectViewPage),
  lazyPage('/Objects/View/:id/:viewMode?', 'title.object', objectPages.ObjectViewPage, {}, objectViewData),
  lazyPage('/Invoices', 'title.invoices', () => import('../features/invoices/pages/invoices-page.tsx').then((m) => ({ Component: m.InvoicesPage }))),
  lazyPage('/Invoices/:id', 'title.invoice', () => import('../features/invoices/pages/invoice-page.tsx').then((m) => ({ Component: m.InvoicePage }))),
  lazyPage('/Mandates/EndingSoon', 'title.mandatesEndingSoon', () => import('../features/objects/pages/mandates-ending-page.tsx').then((m) => ({ Component: m.MandatesEndingPage }))),
  lazyPage('/ObjectKeys', 'title.keys', () => import('../features/objects/pages/object-keys-page.tsx').then((m) => ({ Component: m.ObjectKeysPage })), {}, firstPageOf(KEYS)),
  // A new key (from the keys list, or a property's with ?objectId=): the key's screen in create mode.
  lazyPage('/ObjectKeys/new', 'title.objectKey', () => import('../features/objects/pages/object-key-page.tsx').then((m) => ({ Component: m.ObjectKeyPage }))),
  lazyPage('/ObjectKeys/:id', 'title.objectKey', () => import('../features/objects/pages/object-key-page.tsx').then((m) => ({ Component: m.ObjectKeyPage })), {}, recordViewData(objectKeyQuery)),
  // Accounts
  lazyPage('/Owners', 'title.owners', accountPages.OwnersPage, {}, firstPageOf(OWNERS)),
  lazyPage('/Clients', 'title.clients', accountPages.ClientsPage, {}, firstPageOf(CLIENTS)),
  lazyPage('/Partners', 'title.partners', accountPages.PartnersPage, {}, firstPageOf(PARTNERS)),
  lazyPage('/Professionals', 'title.specialists', accountPages.SpecialistsPage, {}, firstPageOf(SPECIALISTS)),
  lazyPage('/Employes', 'title.employes', accountPages.EmployesPage, { noBranch: true }, firstPageOf(EMPLOYES)),
  lazyPage('/Sources', 'title.sources', accountPages.SourcesPage, {}, firstPageOf(SOURCES)),
  lazyPage('/Accounts', 'title.accounts', accountPages.AccountsPage, {}, firstPageOf(ACCOUNTS)),
  lazyPage('/AllAccounts', 'title.accounts', accountPages.AccountsPage, {}, firstPageOf(ACCOUNTS)),
  lazyPage('/Accounts/Add', 'title.accountAdd', accountPages.AccountAddPage),
  lazyPage('/Accounts/AddOwner', 'title.accountAdd', accountPages.AccountAddPage, { preset: 'isOwner' }),
  lazyPage('/Accounts/AddClient', 'title.accountAdd', accountPages.AccountAddPage, { preset: 'isClient' }),
  lazyPage('/Accounts/AddPartner', 'title.accountAdd', accountPages.AccountAddPage, { preset: 'isPartnerRealEstate' }),
  lazyPage('/Accounts/AddProfessional', 'title.accountAdd', accountPages.AccountAddPage, { preset: 'isProfessional' }),
  lazyPage('/Accounts/AddSource', 'title.accountAdd', accountPages.AccountAddPage, { preset: 'isSource' }),
  // Only office admins make employees (the flag, the role and the branch are theirs); branch users keep no payments.
  lazyPage('/Accounts/AddEmploye', 'title.accountAdd', accountPages.AccountAddPage, { preset: 'isEmploye', noBranch: true, adminOnly: true }),
  lazyPage('/Accounts/AddPayment', 'title.accountAdd', accountPages.AccountAddPage, { preset: 'hasTransactions', noBranch: true }),
  lazyPage('/Accounts/View/:id/:viewMode?', 'title.account', accountPages.AccountViewPage, {}, accountViewData),
  lazyPage('/Accounts/Merge', 'title.merge', accountPages.AccountMergePage),
  lazyPage('/Accounts/Merge/a1/:a1/a2/:a2', 'title.merge', accountPages.AccountMergePage),
  lazyPage('/contact/edit/:id', 'title.account', accountPages.AccountViewPage),
  // Leads
  lazyPage('/Leads', 'title.leads', leadPages.LeadsPage, {}, firstPageOf(LEADS)),
  lazyPage('/Leads/Add/:id?', 'title.lead', leadPages.LeadAddPage),
  lazyPage('/Leads/View/:id/:viewMode?', 'title.lead', leadPages.LeadViewPage, {}, leadViewData),
  // Viewings, deals, reservations
  lazyPage('/Viewing', 'title.viewings', viewingPages.ViewingsPage, {}, firstPageOf(VIEWINGS)),
  lazyPage('/Viewing/Add', 'title.viewing', viewingPages.ViewingPage),
  lazyPage('/Viewing/Edit/:id', 'title.viewing', viewingPages.ViewingPage),
  lazyPage('/Viewing/:id', 'title.viewing', viewingPages.ViewingPage, {}, recordViewData(viewingQuery)),
  lazyPage('/Viewing/:id/Sheet', 'title.viewingSheet', viewingPages.ViewingSheetPage),
  lazyPage('/Calendar', 'title.calendar', viewingPages.CalendarPage, {}, prefetching(({ request }) => [calendarFirstQuery(new URL(request.url).searchParams)])),
  lazyPage('/Deals', 'title.deals', dealPages.DealsPage, {}, firstPageOf(DEALS)),
  lazyPage('/Deals/Board', 'title.dealBoard', dealPages.DealsBoardPage, {}, prefetching(() => [dealBoardFirst()])),
  lazyPage('/Deals/Add', 'title.deal', dealPages.DealPage),
  lazyPage('/Deads/Add', 'title.deal', dealPages.DealPage),
  lazyPage('/Deals/Edit/:id', 'title.deal', dealPages.DealPage),
  lazyPage('/Deals/:id', 'title.deal', dealPages.DealPage, {}, recordViewData(dealQuery)),
  lazyPage('/Reservations', 'title.reservations', reservationPages.ReservationsPage, { noBranch: true }, firstPageOf(RESERVATIONS)),
  lazyPage('/Reservations/Add', 'title.reservation', reservationPages.ReservationPage, { noBranch: true }),
  lazyPage('/Reservations/Availability', 'title.availability', reservationPages.AvailabilityPage, { noBranch: true }, prefetching(({ request }) => [availabilityFirstQuery(new URL(request.url).searchParams)])),
  lazyPage('/Reservations/Edit/:id', 'title.reservation', reservationPages.ReservationPage, { noBranch: true }),
  lazyPage('/Reservations/:id', 'title.reservation', reservationPages.ReservationPage, { noBranch: true }, recordViewData(reservationQuery)),
  // Documents, alerts
  lazyPage('/DocumentList', 'title.documents', officePages.DocumentsPage, {}, firstPageOf(DOCUMENTS)),
  lazyPage('/Document/Add', 'title.document', officePages.DocumentPage),
  lazyPage('/Document/:id', 'title.document', officePages.DocumentPage, {}, prefetching((args) => (new URL(args.request.url).searchParams.get('edit') === '1' ? [] : recordIds(args, (id) => [documentQuery(id)])))),
  // The agents' results: every staff member (the server gives each their rows).
  lazyPage('/Reports', 'title.reports', () => import('./reports/results-page.tsx').then((m) => ({ Component: m.ResultsPage })), {}, prefetching(resultsFirst)),
  lazyPage('/Alerts', 'title.alerts', () => import('../features/alerts/pages/alerts-page.tsx').then((m) => ({ Component: m.AlertsPage })), { noBranch: true }, firstPageOf(ALERTS)),
  lazyPage('/Alerts/:id', 'title.alert', () => import('../features/alerts/pages/alert-page.tsx').then((m) => ({ Component: m.AlertPage })), { noBranch: true }, recordViewData(alertQuery)),
  // Payments
  lazyPage('/Payments', 'title.payments', paymentPages.PaymentsPage, { noBranch: true }, firstPageOf(PAYMENTS)),
  lazyPage(
    '/Payments/View/:id',
    'title.statement',
    paymentPages.StatementPage,
    { noBranch: true },
    prefetching(({ params }) => {
      const id = Number(params.id);
      return Number.isInteger(id) && id > 0 ? [statementFirstPage(id)] : [];
    }),
  ),
  lazyPage('/Payments/View/Income/:id', 'title.income', paymentPages.IncomePage, { noBranch: true }),
  lazyPage('/Payments/AddIncome/:accountId?', 'title.income', paymentPages.IncomePage, { noBranch: true }),
  lazyPage('/Payments/EditIncome/:id', 'title.income', paymentPages.IncomePage, { noBranch: true }),
  lazyPage('/Payments/AddExpense/:accountId?', 'title.expense', paymentPages.ExpensePage, { noBranch: true }),
  lazyPage('/Payments/EditExpense/:id', 'title.expense', paymentPages.ExpensePage, { noBranch: true }),
  {
    path: '/Payments/AccountAdd',
    element: <ClientRedirect to="/Accounts/AddPayment" />,
    handle: { title: 'title.accountAdd', serverRedirect: '/Accounts/AddPayment' } satisfies RouteHandle,
  },
  // Settings and administration
  lazyPage('/Settings', 'title.settings', officePages.SettingsPage, { noBranch: true, adminOnly: true }),
  lazyPage('/Settings/Setup', 'title.agencySetup', officePages.SetupPage, { noBranch: true, adminOnly: true }),
  lazyPage('/Settings/DocumentTemplates', 'title.documentTemplates', officePages.DocTemplatesPage, { noBranch: true, adminOnly: true }),
  lazyPage('/ActionLog', 'title.actionLog', officePages.ActionLogPage, { noBranch: true, adminOnly: true }, firstPageOf(ACTION_LOG)),
  lazyPage('/Jobs', 'title.jobs', officePages.JobsPage, { noBranch: true, adminOnly: true }),
  lazyPage('/Settings/ApiKeys', 'title.apiKeys', officePages.ApiKeysPage, { noBranch: true, adminOnly: true }),
  lazyPage('/Settings/Webhooks', 'title.webhooks', officePages.WebhooksPage, { noBranch: true, adminOnly: true }),
  lazyPage('/Import', 'title.import', officePages.ImportPage, { noBranch: true, adminOnly: true }),
  // An agent sees the shared mailboxes and their own; an office administrator manages them all.
  lazyPage('/Mailboxes', 'title.mailboxes', officePages.MailboxesPage),
  // Every staff member's own calendar address (the office-wide one for office administrators inside).
  lazyPage('/CalendarFeed', 'title.calendarFeed', officePages.CalendarFeedPage),
  lazyPage('/ChangeEmployeRole/:id', 'title.employeRole', accountPages.EmployeRolePage, { noBranch: true, adminOnly: true }),
  lazyPage('/SetPassword/:id', 'title.setPassword', accountPages.SetPasswordPage, { noBranch: true, adminOnly: true }),
];

/**
 * The router is made when main.tsx asks for it, in a task of its own after the modules have run:
 * making it matches the address against every route and starts the first screen's code and data,
 * and in the same task as the modules' evaluation that was one long block of a phone's main thread.
 */
let made: ReturnType<typeof createRouter> | undefined;
export const appRouter = () => (made ??= makeRouter());

/**
 * Starts the router made by appRouter (once): the address matched, the first screen's code and data
 * asked for. A task of its own after the router's making (decision 120): `createBrowserRouter` did
 * both in one, 30-55 ms of a desktop core.
 */
let started = false;
export function startRouter(): ReturnType<typeof createRouter> {
  const router = appRouter();
  if (!started) {
    started = true;
    router.initialize();
  }
  return router;
}

/**
 * Shown while the first screen's code and data load on the page's first render. The screens draw
 * their own loading states; nothing is drawn before them (as before), and React Router no longer
 * warns that this was left unsaid.
 */
const NothingYet = () => null;

// createBrowserRouter's own making, without its initialize(): the routes made into data routes here,
// started by startRouter (no hydration data: the server's drawing hands its data to the query cache).
// As react-router 7.18.5's createBrowserRouter makes it (its options that the app sets); check again on an upgrade.
const makeRouter = () => createRouter({ history: createBrowserHistory(), routes: appRoutes(), mapRouteProperties, hydrationRouteProperties });

/** The app's routes: the browser's router, and the server's first paint (entry-server.tsx). */
export const appRoutes = (): RouteObject[] => [{ HydrateFallback: NothingYet, children: [
  // No layout, no sign-in
  // The sign-in page is part of the entry: the first screen of every visit without a session, and
  // its inputs are the ones every other screen uses too. Lazy, it cost a round trip before it showed.
  { path: '/login', Component: LoginPage, handle: { title: 'title.login' } satisfies RouteHandle },
  lazyPage('/ForgotPassword', 'title.forgotPassword', () => import('../features/auth/pages/forgot-password-page.tsx').then((m) => ({ Component: m.ForgotPasswordPage }))),
  lazyPage('/ResetPassword', 'title.resetPassword', () => import('../features/auth/pages/reset-password-page.tsx').then((m) => ({ Component: m.ResetPasswordPage }))),
  // The client's expense approval from the mailed link: no layout, no sign-in (the link's token opens that expense).
  lazyPage('/Payments/ApproveExpense/:id', 'paymentsClient.approval.title', () =>
    import('../features/payments-client/pages/approve-expense-page.tsx').then((m) => ({ Component: m.ApproveExpensePage })),
  ),
  // The properties an agent sent a client: no layout, no sign-in (the link's token opens that shortlist).
  lazyPage('/Shortlist/:token', 'shortlist.page.title', () => import('../features/shortlist/pages/shortlist-page.tsx').then((m) => ({ Component: m.ShortlistPage }))),
  // A property's report for its owner: no layout, no sign-in (the link's token opens that one property's report).
  lazyPage('/OwnerReport/:token', 'ownerReport.page.title', () => import('../features/owner-report/pages/owner-report-page.tsx').then((m) => ({ Component: m.OwnerReportPage }))),
  // A document sent for signature: no layout, no sign-in (the link's token opens that one request).
  lazyPage('/Sign/:token', 'signing.page.title', () => import('../features/signing/pages/sign-page.tsx').then((m) => ({ Component: m.SignPage }))),
  // Drawn by the server only for staff of the CRM (entry-server.tsx): their home, answered as a redirect.
  { path: '/', element: <RedirectHome />, handle: { serverRedirect: '/CRM' } },
  {
    element: <RequireAuth />,
    children: [
      {
        lazy: () => import('./shell/shell-switch.tsx').then((m) => ({ Component: m.ShellSwitch })),
        children: [...protectedRoutes, { path: '*', element: <NotFound />, handle: { title: 'title.notFound' } }],
      },
    ],
  },
  { path: '/index.html', element: <ClientRedirect to="/" /> },
] }];
