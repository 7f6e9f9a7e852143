-- Issue 46, decision 095: the addresses a message asks answers to go to (Reply-To), parsed once when
-- it is synced, as its From, To and Cc are. Null for a message stored before this: a reply reads the
-- kept header text then.
ALTER TABLE "mail_messages" ADD COLUMN "reply_to" jsonb;
