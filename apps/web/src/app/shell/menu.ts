/** The navbar of the spec: two dropdowns, then single links. Branch users do not see `noBranch` items. */
export type MenuLink = { label: string; to: string; noBranch?: boolean; adminOnly?: boolean };
export type MenuEntry = MenuLink | { label: string; children: MenuLink[] };

export const MENU: MenuEntry[] = [
  {
    label: 'nav.realties',
    children: [
      { label: 'nav.properties', to: '/Objects' },
      { label: 'nav.objectSearch', to: '/Objects/Search' },
      { label: 'nav.keys', to: '/ObjectKeys' },
    ],
  },
  {
    label: 'nav.accounts',
    children: [
      { label: 'nav.owners', to: '/Owners' },
      { label: 'nav.clients', to: '/Clients' },
      { label: 'nav.partners', to: '/Partners' },
      { label: 'nav.specialists', to: '/Professionals' },
      { label: 'nav.employes', to: '/Employes', noBranch: true },
      // Beside the employees: what each of them did (a branch user sees their branch's, an employee their own).
      { label: 'nav.reports', to: '/Reports' },
      { label: 'nav.leads', to: '/Leads' },
      { label: 'nav.alerts', to: '/Alerts', noBranch: true },
      { label: 'nav.sources', to: '/Sources' },
      { label: 'nav.allAccounts', to: '/Accounts' },
    ],
  },
  { label: 'nav.viewings', to: '/Viewing' },
  { label: 'nav.deals', to: '/Deals' },
  { label: 'nav.reservations', to: '/Reservations', noBranch: true },
  { label: 'nav.payments', to: '/Payments', noBranch: true },
  { label: 'nav.documents', to: '/DocumentList' },
  { label: 'nav.settings', to: '/Settings', noBranch: true, adminOnly: true },
];

/** The menu a user sees: items hidden from branch users, and admin-only items from others, are left out. */
export function visibleMenu(branchUser: boolean, admin = true): MenuEntry[] {
  if (!branchUser && admin) return MENU;
  const shown = (l: MenuLink) => !(branchUser && l.noBranch) && !(!admin && l.adminOnly);
  return MENU.flatMap((e): MenuEntry[] => {
    if ('children' in e) return [{ ...e, children: e.children.filter(shown) }];
    return shown(e) ? [e] : [];
  });
}
