-- A change's claim on its Idempotency-Key is a lease (decision 031): renewed while the change runs,
-- taken over by a retry once it has run out (its instance was killed), instead of blocking the key
-- for a day. Nullable: older instances leave it empty, and their claims count as leases of 10 minutes.
ALTER TABLE "idempotent_requests" ADD COLUMN IF NOT EXISTS "claimed_until" timestamptz;
