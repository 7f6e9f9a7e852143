export * from './platform.ts';
export * from './records.ts';
export * from './objects.ts';
export * from './leads.ts';
export * from './office.ts';
export * from './jobs.ts';
export * from './payments.ts';
export * from './deals.ts';
