import { integer } from 'drizzle-orm/pg-core';
import { createdNow, tsz } from './column-types.ts';
import { userRef } from './platform.ts';

/** Who made a row and when (the person gone: null). */
export const createStamps = () => ({
  createdOn: createdNow(),
  createdBy: userRef('created_by'),
});

/** Who made a row and when, who changed it last and when (the person gone: null). */
export const changeStamps = () => ({
  ...createStamps(),
  modifiedOn: tsz('modified_on').notNull().defaultNow(),
  modifiedBy: userRef('modified_by'),
});

/** The change stamps and the counter every update increments: the optimistic-concurrency token (decision 002). */
export const versionedStamps = () => ({
  ...changeStamps(),
  version: integer('version').notNull().default(1),
});
