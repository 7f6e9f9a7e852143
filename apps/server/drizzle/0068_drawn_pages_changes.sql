-- Drawn first pages are kept while nothing they can show has changed (decision 054; ssr/first-paint.ts):
-- every table a screen reads is counted as changed (0063, 0065 and these); the tables made from
-- others (totals, words, kept lists and figures) and those no screen shows (sessions, throttles,
-- the job queue) are not. A test checks that every table is one or the other.
CREATE TRIGGER action_log_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON action_log FOR EACH STATEMENT EXECUTE FUNCTION crm_data_changed();--> statement-breakpoint
CREATE TRIGGER alerts_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON alerts FOR EACH STATEMENT EXECUTE FUNCTION crm_data_changed();--> statement-breakpoint
CREATE TRIGGER branches_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON branches FOR EACH STATEMENT EXECUTE FUNCTION crm_data_changed();--> statement-breakpoint
CREATE TRIGGER documents_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON documents FOR EACH STATEMENT EXECUTE FUNCTION crm_data_changed();--> statement-breakpoint
CREATE TRIGGER files_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON files FOR EACH STATEMENT EXECUTE FUNCTION crm_data_changed();--> statement-breakpoint
CREATE TRIGGER imports_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON imports FOR EACH STATEMENT EXECUTE FUNCTION crm_data_changed();--> statement-breakpoint
CREATE TRIGGER lead_objects_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON lead_objects FOR EACH STATEMENT EXECUTE FUNCTION crm_data_changed();--> statement-breakpoint
CREATE TRIGGER lead_object_marks_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON lead_object_marks FOR EACH STATEMENT EXECUTE FUNCTION crm_data_changed();--> statement-breakpoint
CREATE TRIGGER locations_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON locations FOR EACH STATEMENT EXECUTE FUNCTION crm_data_changed();--> statement-breakpoint
CREATE TRIGGER login_devices_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON login_devices FOR EACH STATEMENT EXECUTE FUNCTION crm_data_changed();--> statement-breakpoint
CREATE TRIGGER object_accounts_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON object_accounts FOR EACH STATEMENT EXECUTE FUNCTION crm_data_changed();--> statement-breakpoint
CREATE TRIGGER object_key_loans_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON object_key_loans FOR EACH STATEMENT EXECUTE FUNCTION crm_data_changed();--> statement-breakpoint
CREATE TRIGGER object_keys_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON object_keys FOR EACH STATEMENT EXECUTE FUNCTION crm_data_changed();--> statement-breakpoint
CREATE TRIGGER payment_accounts_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON payment_accounts FOR EACH STATEMENT EXECUTE FUNCTION crm_data_changed();--> statement-breakpoint
CREATE TRIGGER shortlist_objects_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON shortlist_objects FOR EACH STATEMENT EXECUTE FUNCTION crm_data_changed();--> statement-breakpoint
CREATE TRIGGER shortlists_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON shortlists FOR EACH STATEMENT EXECUTE FUNCTION crm_data_changed();--> statement-breakpoint
CREATE TRIGGER site_settings_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON site_settings FOR EACH STATEMENT EXECUTE FUNCTION crm_data_changed();--> statement-breakpoint
CREATE TRIGGER transaction_attachments_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON transaction_attachments FOR EACH STATEMENT EXECUTE FUNCTION crm_data_changed();--> statement-breakpoint
CREATE TRIGGER transactions_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON transactions FOR EACH STATEMENT EXECUTE FUNCTION crm_data_changed();--> statement-breakpoint
CREATE TRIGGER users_data_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON users FOR EACH STATEMENT EXECUTE FUNCTION crm_data_changed();
