-- A back-dated write to a statement is cheaper (decision 112): summing an account again read every
-- transaction of every account (the planner joined its 2,000 new balances to a scan of the whole
-- table) and then fired the update trigger again over the rows it had just written. The rows to write
-- are now looked up by their account, the trigger skips the balance's own writes, and pages of new
-- transactions keep room so a balance rewritten stays on its page (a HOT update, no index entries).
ALTER TABLE "transactions" SET (fillfactor = 85);
--> statement-breakpoint
CREATE OR REPLACE FUNCTION crm_transaction_balances(account_ids integer[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  a integer;
BEGIN
  FOR a IN SELECT DISTINCT x FROM unnest(account_ids) x WHERE x IS NOT NULL ORDER BY 1 LOOP
    PERFORM pg_advisory_xact_lock(hashtext('transactions_balance'), a);
    PERFORM set_config('crm.transaction_balances', 'writing', true);
    UPDATE "transactions" t SET "balance" = s.b
    FROM (
      SELECT id, sum(CASE WHEN type = 'income' THEN amount WHEN status = 1 OR status IS NULL THEN -amount ELSE 0 END)
               OVER (ORDER BY transaction_date, id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS b
      FROM "transactions" WHERE account_id = a
    ) s
    WHERE t.account_id = a AND t.id = s.id AND t.balance IS DISTINCT FROM s.b;
    PERFORM set_config('crm.transaction_balances', '', true);
  END LOOP;
END $$;
--> statement-breakpoint
-- An update that changes what a balance is made of (the account, type, status, amount or date):
-- the balance's own writes (made above, marked for this transaction while they run) stop here.
CREATE OR REPLACE FUNCTION crm_transaction_balances_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('crm.transaction_balances', true) = 'writing' THEN
    RETURN NULL;
  END IF;
  PERFORM crm_transaction_balances(array(
    SELECT unnest(array[o.account_id, n.account_id]) FROM old_rows o JOIN new_rows n ON n.id = o.id
    WHERE (o.account_id, o.type, o.status, o.amount, o.transaction_date) IS DISTINCT FROM (n.account_id, n.type, n.status, n.amount, n.transaction_date)));
  RETURN NULL;
END $$;
