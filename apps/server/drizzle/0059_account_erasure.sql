-- A person's data erased on request (GDPR Art. 17, decision 051): when. The account stays, anonymised,
-- for the deals and payments the law keeps; the date shows it as erased and keeps it out of mailings.
ALTER TABLE "accounts" ADD COLUMN "erased_on" timestamp with time zone;
