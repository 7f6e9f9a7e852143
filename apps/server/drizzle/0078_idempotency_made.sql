-- A change's transaction marks its Idempotency-Key as made, in the same commit (decision 031): a
-- retry that finds the key made but without its answer (the instance died between the commit and
-- keeping the answer) says the change was saved instead of running it again.
ALTER TABLE "idempotent_requests" ADD COLUMN IF NOT EXISTS "made_at" timestamptz;
