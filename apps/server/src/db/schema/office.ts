import { index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { users } from './platform.ts';

const tsz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * The document forms library: a named form with a description; its files are rows of `files`
 * with parent_type = LinkKind.Document.
 */
export const documents = pgTable(
  'documents',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    description: text('description'),
    createdOn: tsz('created_on').notNull().defaultNow(),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    modifiedOn: tsz('modified_on').notNull().defaultNow(),
    modifiedBy: integer('modified_by').references(() => users.id, { onDelete: 'set null' }),
    version: integer('version').notNull().default(1),
  },
  (t) => [index('documents_name_idx').on(sql`lower(${t.name})`, t.id)],
);
