import { integer, timestamp } from 'drizzle-orm/pg-core';
import { users } from './platform.ts';

const tsz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Who made a row and when, who changed it last and when (the person gone: null). */
export const changeStamps = () => ({
  createdOn: tsz('created_on').notNull().defaultNow(),
  createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
  modifiedOn: tsz('modified_on').notNull().defaultNow(),
  modifiedBy: integer('modified_by').references(() => users.id, { onDelete: 'set null' }),
});

/** The change stamps and the counter every update increments: the optimistic-concurrency token (decision 002). */
export const versionedStamps = () => ({
  ...changeStamps(),
  version: integer('version').notNull().default(1),
});
