-- Recomputes the list totals from the accounts themselves: after a bulk load that skipped the
-- triggers (session_replication_role = replica), or to repair them. Locks the counters while it runs.
CREATE OR REPLACE FUNCTION crm_account_counts_recount() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  LOCK TABLE public.account_counts IN EXCLUSIVE MODE;
  INSERT INTO public.account_counts (kind, n)
  SELECT k.kind, k.n FROM (
    SELECT count(*) AS a, count(*) FILTER (WHERE is_client) AS c, count(*) FILTER (WHERE is_employe) AS e, count(*) FILTER (WHERE is_owner) AS o,
      count(*) FILTER (WHERE is_partner_real_estate OR is_partner_tourism) AS p, count(*) FILTER (WHERE is_professional) AS pr, count(*) FILTER (WHERE is_source) AS s
    FROM public.accounts) t,
  LATERAL (VALUES ('all', t.a), ('client', t.c), ('employe', t.e), ('owner', t.o), ('partner', t.p), ('professional', t.pr), ('source', t.s)) AS k(kind, n)
  ON CONFLICT (kind) DO UPDATE SET n = excluded.n;
END $$;
