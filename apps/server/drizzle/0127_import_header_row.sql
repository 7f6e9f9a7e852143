-- The row of an uploaded sheet its headers were found on (issue 44, decision 052): a file the CRM
-- wrote (Deals.xlsx) or an office's own has a title and notes above its table. The preview numbers
-- the rows as the sheet does, and says which row it read the headers from. Uploads before this: 1.
ALTER TABLE "imports" ADD COLUMN IF NOT EXISTS "header_row" integer NOT NULL DEFAULT 1;
