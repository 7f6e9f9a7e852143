import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { boundaries } from './scripts/lint/boundaries.js';

/** Rules of every file: no focused or skipped test is committed. */
const noFocusedOrSkipped = [
  { selector: "CallExpression[callee.property.name='only'][callee.object.name=/^(it|test|describe)$/]", message: 'No focused tests.' },
  { selector: "CallExpression[callee.property.name='skip'][callee.object.name=/^(it|test|describe)$/]", message: 'No skipped tests.' },
];

/**
 * The web app writes no API path (decision 057): each call is declared once, in its resource of the
 * contract, and called, linked or fetched by that declaration. A string or template starting with
 * /api/ is a path typed a second time, which the contract's types and the server's check of every
 * route do not see.
 */
const API_PATH_MESSAGE =
  'An API path is written once, in its resource (packages/contract/src/*.resource.ts): call it with call(X.calls.name, …) (lib/api.ts), build a link or src with urlOf(X.calls.name, …).';
const noApiPaths = [
  { selector: 'Literal[value=/^\\/api(\\/|\\?|$)/i]', message: API_PATH_MESSAGE },
  { selector: 'TemplateLiteral[quasis.0.value.cooked=/^\\/api(\\/|\\?|$)/i]', message: API_PATH_MESSAGE },
];

/**
 * A record's screen is linked by its declared path (the resource's `screens`, which the web router
 * mounts), never by a template built by hand: href(X.screens.name, params, query) fills it, typed
 * from the path, so a screen moved or a param missing fails the typecheck instead of a link.
 */
const SCREEN_PATH_MESSAGE =
  'A screen path is written once, in its resource (packages/contract/src/*.resource.ts, screens): link it with href(X.screens.name, { … }, query?).';
const noScreenPaths = [
  {
    selector: 'TemplateLiteral[quasis.0.value.cooked=/^\\/(Objects|Accounts|Leads|Lead|Deals|Deal|Viewing|Reservations|Reservation|Alerts|Document|Documents|ObjectKeys|Payments|Transaction)(\\/|\\?|$)/]',
    message: SCREEN_PATH_MESSAGE,
  },
];

export default tseslint.config(
  { ignores: ['**/dist/**', '**/dist-ssr/**', '**/node_modules/**', 'apps/server/drizzle/**', 'data/**', 'e2e/.data/**', 'test-results/**', 'playwright-report/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': ['error', ...noFocusedOrSkipped],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'warn' },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    plugins: { crm: { rules: { boundaries } } },
    rules: { 'crm/boundaries': 'error' },
  },
  {
    // The web app's API paths come from the contract's resources, never a string; the api client
    // itself and the tests (which may name a path to check it) aside. The property search's calls
    // are converted on their own branch.
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: ['apps/web/src/lib/api.ts', 'apps/web/src/**/*.test.{ts,tsx}'],
    rules: { 'no-restricted-syntax': ['error', ...noFocusedOrSkipped, ...noApiPaths, ...noScreenPaths] },
  },
  {
    // The web app's code stays in pieces a reader takes in (issue 44): no file over 400 lines, no
    // function over 150; a screen that grows past them is split into its parts or built on the kit.
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: ['apps/web/src/**/*.test.{ts,tsx}'],
    rules: { 'max-lines': ['error', { max: 400 }], 'max-lines-per-function': ['error', { max: 150 }] },
  },
  {
    // The api client may name an API path, but links no screen by hand either.
    files: ['apps/web/src/lib/api.ts'],
    rules: { 'no-restricted-syntax': ['error', ...noFocusedOrSkipped, ...noScreenPaths] },
  },
  {
    // The web app never imports server code.
    files: ['apps/web/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [{ group: ['**/server/**', '@crm/server'], message: 'The web app never imports server code.' }],
          // Values come from '@crm/contract/constants' (no zod on the first page); types from anywhere.
          paths: [
            { name: '@crm/contract', allowTypeImports: true, message: "Import values from '@crm/contract/constants'; use 'import type' for types." },
            { name: 'react-i18next', importNames: ['useTranslation'], message: "Use lib/use-translation.tsx's useTranslation: one value for the app, not a copy of i18next per component." },
          ],
        },
      ],
    },
  },
);
