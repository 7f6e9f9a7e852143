import { calls, type ListDeclaration } from './call.ts';
import type { PAYMENT_API } from './payments.ts';

/**
 * Payments (spec: /api/transactions...): the accounts that keep payments, an account's statement and
 * its Transactions.xlsx, the attachments, the income and expense forms (a blank one, one to edit, and
 * each saved as form-data), delete (decision 057). The client's side is `PAYMENT_CLIENT`.
 */
export const PAYMENT = {
  calls: calls<typeof PAYMENT_API>({
    accounts: 'GET /api/transactions/accounts',
    statement: 'GET /api/transactions',
    download: 'GET /api/transactions/download/:accountId',
    file: 'GET /api/transactions/files/:id',
    namedFile: 'GET /api/transactions/files/:id/:name',
    addIncome: 'GET /api/transactions/addIncome',
    editIncome: 'GET /api/transactions/editIncome/:id',
    createIncome: 'POST /api/transactions/addIncome',
    updateIncome: 'POST /api/transactions/editIncome',
    addExpense: 'GET /api/transactions/addExpense',
    editExpense: 'GET /api/transactions/editExpense/:id',
    createExpense: 'POST /api/transactions/addExpense',
    updateExpense: 'POST /api/transactions/editExpense',
    remove: 'DELETE /api/transactions/:id',
  }),
  screens: {
    list: '/Payments',
    statement: '/Payments/View/:id',
    viewIncome: '/Payments/View/Income/:id',
    addIncome: '/Payments/AddIncome/:accountId?',
    editIncome: '/Payments/EditIncome/:id',
    addExpense: '/Payments/AddExpense/:accountId?',
    editExpense: '/Payments/EditExpense/:id',
  },
  list: {
    testId: 'payments',
    title: 'title.payments',
    empty: 'payments.ui.empty',
    noMatch: 'payments.ui.noMatch',
    add: { to: '/Accounts/AddPayment', label: 'payments.ui.addAccount', testId: 'payments-add-account' },
  } satisfies ListDeclaration,
} as const;
