import { index, integer, jsonb, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { tsz } from './column-types.ts';
import { createStamps } from './columns.ts';

/**
 * A spreadsheet brought in (decision 052): the file as read (its header and cells, kept from the
 * upload until the import, so the preview and the import read the same rows), and once imported,
 * when, by whom and what it made. The token of the upload (its hash here) imports it once only.
 */
export const imports = pgTable(
  'imports',
  {
    id: serial('id').primaryKey(),
    tokenHash: text('token_hash').notNull(),
    /** 'owners' or 'objects'. */
    kind: text('kind').notNull(),
    fileName: text('file_name').notNull(),
    /** sha256 of the file's bytes: the same file imported again is pointed out. */
    fileHash: text('file_hash').notNull(),
    headers: jsonb('headers').$type<string[]>().notNull(),
    /** The cells as text, row by row (emptied once imported). */
    cells: jsonb('cells').$type<string[][]>().notNull(),
    /** The sheet's row the headers were read from (a title and notes may come first); the cells are the rows under it. */
    headerRow: integer('header_row').notNull().default(1),
    /** Each kept row's number in the sheet (blank rows are left out); null: the rows right under the header, in a run (emptied once imported). */
    rowNumbers: jsonb('row_numbers').$type<number[]>(),
    ...createStamps(),
    importedOn: tsz('imported_on'),
    importedByName: text('imported_by_name'),
    /** The counts and the ids of the accounts and properties made or linked. */
    result: jsonb('result'),
  },
  (t) => [uniqueIndex('imports_token_hash_idx').on(t.tokenHash), index('imports_file_hash_idx').on(t.fileHash)],
);
