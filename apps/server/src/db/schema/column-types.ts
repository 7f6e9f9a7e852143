import { customType, integer, timestamp, type AnyPgColumn } from 'drizzle-orm/pg-core';

/** A moment: timestamptz, read as a Date. */
export const tsz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Bytes (hashes of tokens and keys). */
export const bytea = customType<{ data: Buffer }>({ dataType: () => 'bytea' });

/** When the row was made: set by the database. */
export const createdNow = () => tsz('created_on').notNull().defaultNow();

type Target = () => AnyPgColumn;

/** A row that belongs to another (its parent's id): it goes with its parent. */
export const partOf = (name: string, parent: Target) => integer(name).notNull().references(parent, { onDelete: 'cascade' });

/** A link to another row, emptied when that row goes. */
export const linkTo = (name: string, target: Target) => integer(name).references(target, { onDelete: 'set null' });
