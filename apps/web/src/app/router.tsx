import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { RequireAuth, RedirectHome } from './guards.tsx';
import { ComingSoon } from './coming-soon.tsx';
import { NotFound } from './not-found.tsx';

export type RouteHandle = { title: string; noBranch?: boolean; adminOnly?: boolean };

/** Screens that later releases replace; the shell shows a clear "coming soon" page meanwhile. */
const soon = (path: string, title: string, extra: Partial<RouteHandle> = {}): RouteObject => ({
  path,
  element: <ComingSoon />,
  handle: { title, ...extra } satisfies RouteHandle,
});

const lazyPage = (path: string, title: string, load: () => Promise<{ Component: React.ComponentType }>, extra: Partial<RouteHandle> = {}): RouteObject => ({
  path,
  lazy: load,
  handle: { title, ...extra } satisfies RouteHandle,
});

/** The route table of the spec (document 001, 2.1), in one place. */
export const protectedRoutes: RouteObject[] = [
  lazyPage('/CRM', 'title.home', () => import('../features/home/pages/home-page.tsx').then((m) => ({ Component: m.HomePage }))),
  soon('/Test', 'title.home'),
  // Objects and keys
  soon('/Objects', 'title.objects'),
  soon('/Objects/Add', 'title.objectAdd'),
  soon('/Objects/Search', 'title.objectSearch'),
  soon('/Objects/View/:id/:viewMode?', 'title.object'),
  soon('/ObjectKeys', 'title.keys'),
  soon('/ObjectKeys/:id', 'title.keys'),
  // Accounts
  soon('/Owners', 'title.owners'),
  soon('/Clients', 'title.clients'),
  soon('/Partners', 'title.partners'),
  soon('/Professionals', 'title.specialists'),
  soon('/Employes', 'title.employes', { noBranch: true }),
  soon('/Sources', 'title.sources'),
  soon('/Accounts', 'title.accounts'),
  soon('/AllAccounts', 'title.accounts'),
  soon('/Accounts/Add', 'title.accountAdd'),
  soon('/Accounts/AddOwner', 'title.accountAdd'),
  soon('/Accounts/AddClient', 'title.accountAdd'),
  soon('/Accounts/AddPartner', 'title.accountAdd'),
  soon('/Accounts/AddProfessional', 'title.accountAdd'),
  soon('/Accounts/AddSource', 'title.accountAdd'),
  soon('/Accounts/AddEmploye', 'title.accountAdd', { noBranch: true }),
  soon('/Accounts/AddPayment', 'title.accountAdd'),
  soon('/Accounts/View/:id/:viewMode?', 'title.account'),
  soon('/Accounts/Merge', 'title.merge'),
  soon('/Accounts/Merge/a1/:a1/a2/:a2', 'title.merge'),
  soon('/contact/edit/:id', 'title.account'),
  // Leads
  soon('/Leads', 'title.leads'),
  soon('/Leads/Add/:id?', 'title.lead'),
  soon('/Leads/View/:id/:viewMode?', 'title.lead'),
  // Viewings, deals, reservations
  soon('/Viewing', 'title.viewings'),
  soon('/Viewing/Add', 'title.viewing'),
  soon('/Viewing/Edit/:id', 'title.viewing'),
  soon('/Viewing/:id', 'title.viewing'),
  soon('/Deals', 'title.deals'),
  soon('/Deals/Add', 'title.deal'),
  soon('/Deads/Add', 'title.deal'),
  soon('/Deals/Edit/:id', 'title.deal'),
  soon('/Deals/:id', 'title.deal'),
  soon('/Reservations', 'title.reservations', { noBranch: true }),
  soon('/Reservations/Add', 'title.reservation', { noBranch: true }),
  soon('/Reservations/Edit/:id', 'title.reservation', { noBranch: true }),
  soon('/Reservations/:id', 'title.reservation', { noBranch: true }),
  // Documents, alerts
  soon('/DocumentList', 'title.documents'),
  soon('/Document/Add', 'title.document'),
  soon('/Document/:id', 'title.document'),
  soon('/Alerts', 'title.alerts', { noBranch: true }),
  soon('/Alerts/:id', 'title.alert', { noBranch: true }),
  // Payments
  soon('/Payments', 'title.payments', { noBranch: true }),
  soon('/Payments/View/:id', 'title.statement', { noBranch: true }),
  soon('/Payments/View/Income/:id', 'title.statement', { noBranch: true }),
  soon('/Payments/AddIncome/:accountId', 'title.statement', { noBranch: true }),
  soon('/Payments/EditIncome/:id', 'title.statement', { noBranch: true }),
  soon('/Payments/AddExpense/:accountId', 'title.statement', { noBranch: true }),
  soon('/Payments/EditExpense/:id', 'title.statement', { noBranch: true }),
  soon('/Payments/AccountAdd', 'title.payments', { noBranch: true }),
  // Settings and administration
  soon('/Settings', 'title.settings', { noBranch: true }),
  soon('/ActionLog', 'title.actionLog', { noBranch: true }),
  soon('/ChangeEmployeRole/:id', 'title.employeRole', { noBranch: true, adminOnly: true }),
  soon('/SetPassword/:id', 'title.setPassword', { noBranch: true, adminOnly: true }),
];

export const router = createBrowserRouter([
  // No layout, no sign-in
  lazyPage('/login', 'title.login', () => import('../features/auth/pages/login-page.tsx').then((m) => ({ Component: m.LoginPage }))),
  lazyPage('/ForgotPassword', 'title.forgotPassword', () => import('../features/auth/pages/forgot-password-page.tsx').then((m) => ({ Component: m.ForgotPasswordPage }))),
  lazyPage('/ResetPassword', 'title.resetPassword', () => import('../features/auth/pages/reset-password-page.tsx').then((m) => ({ Component: m.ResetPasswordPage }))),
  { path: '/', element: <RedirectHome /> },
  {
    element: <RequireAuth />,
    children: [
      {
        lazy: () => import('./shell/layout.tsx').then((m) => ({ Component: m.Layout })),
        children: [...protectedRoutes, { path: '*', element: <NotFound />, handle: { title: 'title.notFound' } }],
      },
    ],
  },
  { path: '/index.html', element: <Navigate to="/" replace /> },
]);
