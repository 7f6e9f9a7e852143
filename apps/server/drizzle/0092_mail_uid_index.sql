-- The sync marks the mail the server no longer has (0090) by mailbox, UIDVALIDITY and UID range, on
-- every poll and every IDLE wake-up: without this index each pass read every message of the mailbox.
CREATE INDEX "mail_messages_mailbox_uid_idx" ON "mail_messages" USING btree ("mailbox_id", "uid_validity", "uid");
