-- The statement's running balance (decision 112): each transaction keeps the account's balance
-- after it (what was paid: incomes in, expenses the agency paid out, unpaid ones and the ones the
-- owner paid directly left out), in the statement's order (date, then id). A page reads its 25
-- rows and their kept balances; it used to sum every row of the account (2,000 on the largest
-- statements) on each request. Triggers bring an account's balances up to date in the statement
-- that changes its rows, under a lock per account, so two writers never keep each other's stale sums.
ALTER TABLE "transactions" ADD COLUMN "balance" numeric;
--> statement-breakpoint
-- Every account's balances from the rows, in one pass (here, and after a load that skipped the triggers).
CREATE FUNCTION crm_transaction_balances_rebuild() RETURNS void LANGUAGE sql AS $$
  UPDATE "transactions" t SET "balance" = s.b
  FROM (
    SELECT id, sum(CASE WHEN type = 'income' THEN amount WHEN status = 1 OR status IS NULL THEN -amount ELSE 0 END)
             OVER (PARTITION BY account_id ORDER BY transaction_date, id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS b
    FROM "transactions"
  ) s
  WHERE t.id = s.id AND t.balance IS DISTINCT FROM s.b;
$$;
--> statement-breakpoint
SELECT crm_transaction_balances_rebuild();
--> statement-breakpoint
-- The accounts' balances summed again, one account at a time under its lock; only the rows whose kept
-- balance differs are written (a row added last: that row alone).
CREATE FUNCTION crm_transaction_balances(account_ids integer[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  a integer;
BEGIN
  FOR a IN SELECT DISTINCT x FROM unnest(account_ids) x WHERE x IS NOT NULL ORDER BY 1 LOOP
    PERFORM pg_advisory_xact_lock(hashtext('transactions_balance'), a);
    UPDATE "transactions" t SET "balance" = s.b
    FROM (
      SELECT id, sum(CASE WHEN type = 'income' THEN amount WHEN status = 1 OR status IS NULL THEN -amount ELSE 0 END)
               OVER (ORDER BY transaction_date, id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS b
      FROM "transactions" WHERE account_id = a
    ) s
    WHERE t.id = s.id AND t.balance IS DISTINCT FROM s.b;
  END LOOP;
END $$;
--> statement-breakpoint
CREATE FUNCTION crm_transaction_balances_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM crm_transaction_balances(array(SELECT account_id FROM new_rows));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION crm_transaction_balances_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM crm_transaction_balances(array(SELECT account_id FROM old_rows));
  RETURN NULL;
END $$;
--> statement-breakpoint
-- An update that changes what a balance is made of (the account, type, status, amount or date):
-- the balance's own writes change none of them and stop here.
CREATE FUNCTION crm_transaction_balances_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM crm_transaction_balances(array(
    SELECT unnest(array[o.account_id, n.account_id]) FROM old_rows o JOIN new_rows n ON n.id = o.id
    WHERE (o.account_id, o.type, o.status, o.amount, o.transaction_date) IS DISTINCT FROM (n.account_id, n.type, n.status, n.amount, n.transaction_date)));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "transactions_balances_insert" AFTER INSERT ON "transactions" REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_transaction_balances_inserted();
--> statement-breakpoint
CREATE TRIGGER "transactions_balances_delete" AFTER DELETE ON "transactions" REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_transaction_balances_deleted();
--> statement-breakpoint
CREATE TRIGGER "transactions_balances_update" AFTER UPDATE ON "transactions" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION crm_transaction_balances_updated();
