import { calls, type ListDeclaration } from './call.ts';
import type { ACCOUNT_API } from './accounts.ts';

/**
 * Accounts (spec: /api/account/..., the lists by kind, /api/UserRole): the lists, the account picker,
 * the record (add, view, edit, update, delete, merge), a person's data, an employee's role
 * (decision 057). The single-field editor's calls of accounts are the fields' (`FIELD.of.account`).
 */
export const ACCOUNT = {
  calls: calls<typeof ACCOUNT_API>({
    owners: 'GET /api/owner',
    clients: 'POST /api/clients/search',
    professionals: 'GET /api/professional',
    partners: 'POST /api/partners',
    sources: 'GET /api/source',
    employes: 'GET /api/employe',
    list: 'GET /api/account',
    search: 'GET /api/account/search',
    add: 'POST /api/account/add',
    view: 'GET /api/account/view/:id',
    edit: 'GET /api/account/edit/:id',
    update: 'POST /api/account/update',
    remove: 'DELETE /api/account/:id',
    merge: 'POST /api/account/merge',
    personalData: 'GET /api/account/personal-data/:id',
    erase: 'POST /api/account/erase/:id',
    role: 'GET /api/UserRole/:id',
    setRole: 'POST /api/UserRole/:id',
  }),
  screens: {
    list: '/Accounts',
    all: '/AllAccounts',
    owners: '/Owners',
    clients: '/Clients',
    partners: '/Partners',
    professionals: '/Professionals',
    employes: '/Employes',
    sources: '/Sources',
    add: '/Accounts/Add',
    addOwner: '/Accounts/AddOwner',
    addClient: '/Accounts/AddClient',
    addPartner: '/Accounts/AddPartner',
    addProfessional: '/Accounts/AddProfessional',
    addSource: '/Accounts/AddSource',
    addEmploye: '/Accounts/AddEmploye',
    addPayment: '/Accounts/AddPayment',
    view: '/Accounts/View/:id/:viewMode?',
    contact: '/contact/edit/:id',
    merge: '/Accounts/Merge',
    mergePair: '/Accounts/Merge/a1/:a1/a2/:a2',
    role: '/ChangeEmployeRole/:id',
    setPassword: '/SetPassword/:id',
  },
  /** The account lists: each its test id, its title and its texts under `accounts.ui.<kind>` (nothing matching: the search's words, the kind's own text where it has filters beside the search). */
  lists: {
    accounts: { testId: 'accounts', title: 'title.accounts', empty: 'accounts.ui.accounts.empty', add: { to: '/Accounts/Add', label: 'accounts.ui.accounts.add' } },
    owners: { testId: 'owners', title: 'title.owners', empty: 'accounts.ui.owners.empty', add: { to: '/Accounts/AddOwner', label: 'accounts.ui.owners.add' } },
    clients: { testId: 'clients', title: 'title.clients', empty: 'accounts.ui.clients.empty', noMatch: 'accounts.ui.clients.noMatch', add: { to: '/Accounts/AddClient', label: 'accounts.ui.clients.add' } },
    partners: { testId: 'partners', title: 'title.partners', empty: 'accounts.ui.partners.empty', noMatch: 'accounts.ui.partners.noMatch', add: { to: '/Accounts/AddPartner', label: 'accounts.ui.partners.add' } },
    specialists: { testId: 'specialists', title: 'title.specialists', empty: 'accounts.ui.specialists.empty', add: { to: '/Accounts/AddProfessional', label: 'accounts.ui.specialists.add' } },
    sources: { testId: 'sources', title: 'title.sources', empty: 'accounts.ui.sources.empty', add: { to: '/Accounts/AddSource', label: 'accounts.ui.sources.add' } },
    employes: { testId: 'employes', title: 'title.employes', empty: 'accounts.ui.employes.empty', add: { to: '/Accounts/AddEmploye', label: 'accounts.ui.employes.add' } },
  } satisfies Record<string, ListDeclaration>,
} as const;
