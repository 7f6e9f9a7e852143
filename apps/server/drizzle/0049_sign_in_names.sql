-- A sign-in's name is its account's name: the navbar, the greeting of its mails, the action log's
-- "by whom" and the lists that name users read users.username. It was copied once, when the sign-in
-- was made, and kept the old name after the account was renamed. The database now keeps it in step:
-- a sign-in made for an account, or moved to another (a merge), takes that account's name, and a
-- renamed account renames its sign-ins. A sign-in without an account (the first administrator), or
-- of an account without any name, keeps the name it has.
CREATE OR REPLACE FUNCTION crm_users_name_of_account() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.account_id IS NOT NULL THEN
    NEW.username := coalesce((SELECT nullif(a.display_name, '') FROM accounts a WHERE a.id = NEW.account_id), NEW.username);
  END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER users_name_of_account BEFORE INSERT OR UPDATE OF account_id, username ON users
  FOR EACH ROW EXECUTE FUNCTION crm_users_name_of_account();
--> statement-breakpoint
-- display_name is a generated column (never in an UPDATE's SET list): compared.
CREATE OR REPLACE FUNCTION crm_accounts_rename_sign_ins() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE users SET username = NEW.display_name WHERE account_id = NEW.id AND username IS DISTINCT FROM NEW.display_name;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER accounts_rename_sign_ins AFTER UPDATE ON accounts
  FOR EACH ROW WHEN (OLD.display_name IS DISTINCT FROM NEW.display_name AND NEW.display_name <> '') EXECUTE FUNCTION crm_accounts_rename_sign_ins();
--> statement-breakpoint
-- The sign-ins renamed before: their accounts' names now.
UPDATE users u SET username = a.display_name FROM accounts a WHERE a.id = u.account_id AND a.display_name <> '' AND u.username IS DISTINCT FROM a.display_name;
