export * from './constants.ts';
export * from './common.ts';
export * from './auth.ts';
export * from './shell.ts';
export * from './accounts.ts';
