-- A sign-in without an account of its own (the first administrator, made at install) was named by
-- its e-mail wherever a record says who made or changed it, and every user read it there, branch
-- users too, who are shown no employee's sign-in. It is named by the e-mail's local part instead
-- ("admin"); sign-ins made for accounts are named by the account, as before.
UPDATE "users" SET "username" = split_part("email", '@', 1)
WHERE "account_id" IS NULL AND "username" = "email" AND 'admin' = ANY ("roles");
