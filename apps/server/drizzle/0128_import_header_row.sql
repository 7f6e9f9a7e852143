-- The row of an uploaded sheet its headers were found on, and the sheet's numbers of the rows kept
-- under it (issue 44, decision 052): a file the CRM wrote (Deals.xlsx) or an office's own has a title
-- and notes above its table, and blank rows within it. The preview numbers the rows as the sheet
-- does and says which row it read the headers from. Uploads before this: row 1, the rows in a run.
ALTER TABLE "imports" ADD COLUMN IF NOT EXISTS "header_row" integer NOT NULL DEFAULT 1;
--> statement-breakpoint
ALTER TABLE "imports" ADD COLUMN IF NOT EXISTS "row_numbers" jsonb;
