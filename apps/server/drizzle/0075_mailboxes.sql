-- Issue 46, decision 078: the agency's mailboxes (IMAP in, SMTP out) and the mail synced from them
-- onto the records. Passwords are kept encrypted (AES-256-GCM, the key from MAIL_SECRET_KEY), never
-- in clear. A message is one row per mailbox and Message-ID: a sync run again, or one that follows
-- a changed UIDVALIDITY, finds it and adds nothing.
CREATE TABLE "mailboxes" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"address" text NOT NULL,
	"owner_id" integer REFERENCES "users"("id") ON DELETE SET NULL,
	"imap_host" text NOT NULL,
	"imap_port" integer NOT NULL,
	"imap_tls" boolean NOT NULL,
	"imap_user" text NOT NULL,
	"imap_password" text NOT NULL,
	"imap_folder" text DEFAULT 'INBOX' NOT NULL,
	"smtp_host" text,
	"smtp_port" integer,
	"smtp_tls" boolean DEFAULT false NOT NULL,
	"smtp_user" text,
	"smtp_password" text,
	"sync_months" integer DEFAULT 6 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"uid_validity" bigint,
	"last_uid" bigint DEFAULT 0 NOT NULL,
	"last_sync_on" timestamp with time zone,
	"last_sync_error" text,
	"sync_locked_until" timestamp with time zone,
	"version" integer DEFAULT 1 NOT NULL,
	"created_on" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer REFERENCES "users"("id") ON DELETE SET NULL,
	"modified_on" timestamp with time zone DEFAULT now() NOT NULL,
	"modified_by" integer REFERENCES "users"("id") ON DELETE SET NULL
);--> statement-breakpoint
CREATE TABLE "mail_messages" (
	"id" serial PRIMARY KEY NOT NULL,
	"mailbox_id" integer NOT NULL REFERENCES "mailboxes"("id") ON DELETE CASCADE,
	"message_id" text NOT NULL,
	"uid_validity" bigint,
	"uid" bigint,
	"in_reply_to" text,
	"references" text,
	"subject" text DEFAULT '' NOT NULL,
	"from" jsonb,
	"to" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"cc" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"sent_on" timestamp with time zone,
	"headers" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"text" text DEFAULT '' NOT NULL,
	"html" text,
	"remote_images" integer DEFAULT 0 NOT NULL,
	"created_on" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE UNIQUE INDEX "mail_messages_mailbox_message_uq" ON "mail_messages" USING btree ("mailbox_id", "message_id");--> statement-breakpoint
CREATE TABLE "mail_attachments" (
	"id" serial PRIMARY KEY NOT NULL,
	"message_id" integer NOT NULL REFERENCES "mail_messages"("id") ON DELETE CASCADE,
	"system_name" text NOT NULL,
	"user_name" text NOT NULL,
	"mime" text NOT NULL,
	"size" integer NOT NULL
);--> statement-breakpoint
CREATE INDEX "mail_attachments_message_idx" ON "mail_attachments" USING btree ("message_id");--> statement-breakpoint
CREATE TABLE "mail_message_accounts" (
	"message_id" integer NOT NULL REFERENCES "mail_messages"("id") ON DELETE CASCADE,
	"account_id" integer NOT NULL REFERENCES "accounts"("id") ON DELETE CASCADE,
	"sent_on" timestamp with time zone,
	PRIMARY KEY ("account_id", "message_id")
);--> statement-breakpoint
CREATE INDEX "mail_message_accounts_newest_idx" ON "mail_message_accounts" USING btree ("account_id", "sent_on" DESC, "message_id" DESC);--> statement-breakpoint
CREATE INDEX "mail_message_accounts_message_idx" ON "mail_message_accounts" USING btree ("message_id");--> statement-breakpoint
CREATE TABLE "mail_message_objects" (
	"message_id" integer NOT NULL REFERENCES "mail_messages"("id") ON DELETE CASCADE,
	"object_id" integer NOT NULL REFERENCES "objects"("id") ON DELETE CASCADE,
	"sent_on" timestamp with time zone,
	PRIMARY KEY ("object_id", "message_id")
);--> statement-breakpoint
CREATE INDEX "mail_message_objects_newest_idx" ON "mail_message_objects" USING btree ("object_id", "sent_on" DESC, "message_id" DESC);--> statement-breakpoint
CREATE INDEX "mail_message_objects_message_idx" ON "mail_message_objects" USING btree ("message_id");
--> statement-breakpoint
-- A message's addresses find their accounts through this index (e-mails are kept as typed: compared in lower case).
CREATE FUNCTION crm_lower_emails(emails text[]) RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT array_agg(lower(e)) FROM unnest(emails) e $$;--> statement-breakpoint
CREATE INDEX "accounts_emails_lower_idx" ON "accounts" USING gin (public.crm_lower_emails("emails"));
--> statement-breakpoint
-- Mail shows on the account and property screens and the mailboxes' screen: a change is counted (kept answers, drawn pages).
CREATE TRIGGER mailboxes_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON mailboxes FOR EACH STATEMENT EXECUTE FUNCTION crm_data_changed();--> statement-breakpoint
CREATE TRIGGER mail_messages_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON mail_messages FOR EACH STATEMENT EXECUTE FUNCTION crm_data_changed();--> statement-breakpoint
CREATE TRIGGER mail_attachments_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON mail_attachments FOR EACH STATEMENT EXECUTE FUNCTION crm_data_changed();--> statement-breakpoint
CREATE TRIGGER mail_message_accounts_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON mail_message_accounts FOR EACH STATEMENT EXECUTE FUNCTION crm_data_changed();--> statement-breakpoint
CREATE TRIGGER mail_message_objects_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON mail_message_objects FOR EACH STATEMENT EXECUTE FUNCTION crm_data_changed();
