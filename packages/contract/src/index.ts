export * from './constants.ts';
export * from './common.ts';
export * from './auth.ts';
export * from './shell.ts';
export * from './accounts.ts';
export * from './activities.ts';
export * from './files.ts';
export * from './fields.ts';
