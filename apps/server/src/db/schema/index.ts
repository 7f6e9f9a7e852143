export * from './platform.ts';
export * from './records.ts';
