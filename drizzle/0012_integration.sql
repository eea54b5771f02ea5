CREATE TABLE "api_access_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"client_id" uuid NOT NULL,
	"scopes" text[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "api_clients" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"client_id" text NOT NULL,
	"name" text NOT NULL,
	"scopes" text[] NOT NULL,
	"secret_hash" text NOT NULL,
	"secret_created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"rate_limit_per_minute" integer DEFAULT 600 NOT NULL,
	"created_by_label" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "application_changes" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"seq" bigint NOT NULL,
	"tx" "xid8" NOT NULL,
	"changed_at" timestamp (3) with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "application_sis_ids" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"sis_id" text NOT NULL,
	"set_by_label" text NOT NULL,
	"set_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "feed_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"feed" text NOT NULL,
	"mode" text NOT NULL,
	"status" text NOT NULL,
	"started_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp (3) with time zone,
	"from_seq" bigint,
	"from_snapshot" text,
	"to_seq" bigint,
	"to_snapshot" text,
	"row_count" integer,
	"destination" text,
	"file_name" text,
	"error" text,
	"rerun_of" uuid,
	"started_by" text NOT NULL,
	"scheduled_for" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "integration_events" (
	"seq" bigserial PRIMARY KEY NOT NULL,
	"tx" "xid8" DEFAULT pg_current_xact_id() NOT NULL,
	"type" text NOT NULL,
	"account_id" uuid NOT NULL,
	"data" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"occurred_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_attempts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"delivery_id" text NOT NULL,
	"at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"status_code" integer,
	"error" text,
	"duration_ms" integer NOT NULL,
	"replay" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
	"id" text PRIMARY KEY NOT NULL,
	"subscription_id" uuid NOT NULL,
	"event_seq" bigint NOT NULL,
	"event_type" text NOT NULL,
	"account_id" uuid NOT NULL,
	"payload" text NOT NULL,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"last_attempt_at" timestamp with time zone,
	"last_status_code" integer,
	"last_error" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"delivered_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "webhook_subscriptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"url" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"events" text[] NOT NULL,
	"scopes" text[] NOT NULL,
	"secret" text NOT NULL,
	"api_client_id" uuid,
	"created_by_label" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"event_cursor" bigint DEFAULT 0 NOT NULL,
	"event_cursor_snapshot" text,
	"disabled_at" timestamp with time zone,
	"disabled_reason" text
);
--> statement-breakpoint
ALTER TABLE "api_access_tokens" ADD CONSTRAINT "api_access_tokens_client_id_api_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."api_clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "application_changes" ADD CONSTRAINT "application_changes_account_id_applications_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."applications"("account_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "application_sis_ids" ADD CONSTRAINT "application_sis_ids_account_id_applications_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."applications"("account_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_delivery_id_webhook_deliveries_id_fk" FOREIGN KEY ("delivery_id") REFERENCES "public"."webhook_deliveries"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_subscription_id_webhook_subscriptions_id_fk" FOREIGN KEY ("subscription_id") REFERENCES "public"."webhook_subscriptions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_subscriptions" ADD CONSTRAINT "webhook_subscriptions_api_client_id_api_clients_id_fk" FOREIGN KEY ("api_client_id") REFERENCES "public"."api_clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_access_tokens_expiry_idx" ON "api_access_tokens" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "api_clients_client_id_idx" ON "api_clients" USING btree ("client_id");--> statement-breakpoint
CREATE UNIQUE INDEX "api_clients_name_idx" ON "api_clients" USING btree ("name");--> statement-breakpoint
CREATE UNIQUE INDEX "application_changes_seq_idx" ON "application_changes" USING btree ("seq");--> statement-breakpoint
CREATE INDEX "application_changes_tx_idx" ON "application_changes" USING btree ("tx");--> statement-breakpoint
CREATE INDEX "application_sis_ids_sis_id_idx" ON "application_sis_ids" USING btree ("sis_id");--> statement-breakpoint
CREATE INDEX "feed_runs_feed_idx" ON "feed_runs" USING btree ("feed","started_at");--> statement-breakpoint
CREATE UNIQUE INDEX "feed_runs_schedule_idx" ON "feed_runs" USING btree ("feed","scheduled_for");--> statement-breakpoint
CREATE INDEX "integration_events_tx_idx" ON "integration_events" USING btree ("tx");--> statement-breakpoint
CREATE INDEX "integration_events_account_idx" ON "integration_events" USING btree ("account_id","seq");--> statement-breakpoint
CREATE INDEX "integration_events_type_idx" ON "integration_events" USING btree ("type","seq");--> statement-breakpoint
CREATE INDEX "webhook_attempts_delivery_idx" ON "webhook_attempts" USING btree ("delivery_id","id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("next_attempt_at") WHERE "webhook_deliveries"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "webhook_deliveries_subscription_idx" ON "webhook_deliveries" USING btree ("subscription_id","event_seq");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_pending_idx" ON "webhook_deliveries" USING btree ("subscription_id","event_seq") WHERE "webhook_deliveries"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "webhook_deliveries_pending_account_idx" ON "webhook_deliveries" USING btree ("subscription_id","account_id","event_seq") WHERE "webhook_deliveries"."status" = 'pending';
--> statement-breakpoint
CREATE FUNCTION record_integration_event(event_type text, account uuid, payload jsonb) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  event_seq bigint;
BEGIN
  -- Only submitted applications exist for integrators: nothing before submit is an event.
  IF NOT EXISTS (SELECT 1 FROM applications WHERE account_id = account AND submitted_at IS NOT NULL) THEN
    RETURN;
  END IF;
  INSERT INTO integration_events (type, account_id, data) VALUES (event_type, account, payload)
    RETURNING seq INTO event_seq;
  INSERT INTO application_changes (account_id, seq, tx, changed_at)
    VALUES (account, event_seq, pg_current_xact_id(), now())
    ON CONFLICT (account_id) DO UPDATE
      SET seq = excluded.seq, tx = excluded.tx, changed_at = excluded.changed_at;
END
$$;
--> statement-breakpoint
CREATE FUNCTION integration_event_on_submit() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM record_integration_event('application.submitted', NEW.account_id, '{}'::jsonb);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER applications_integration_submit AFTER UPDATE OF submitted_at ON applications
  FOR EACH ROW WHEN (OLD.submitted_at IS NULL AND NEW.submitted_at IS NOT NULL)
  EXECUTE FUNCTION integration_event_on_submit();
--> statement-breakpoint
CREATE TRIGGER applications_integration_insert_submitted AFTER INSERT ON applications
  FOR EACH ROW WHEN (NEW.submitted_at IS NOT NULL)
  EXECUTE FUNCTION integration_event_on_submit();
--> statement-breakpoint
CREATE FUNCTION integration_event_on_checklist() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM record_integration_event('checklist.changed', OLD.account_id,
      jsonb_build_object('item', OLD.item_key, 'state', 'awaiting'));
    RETURN NULL;
  END IF;
  IF TG_OP = 'UPDATE' AND OLD.state = NEW.state THEN
    RETURN NULL;
  END IF;
  PERFORM record_integration_event('checklist.changed', NEW.account_id,
    jsonb_build_object('item', NEW.item_key, 'state', NEW.state));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER checklist_marks_integration AFTER INSERT OR UPDATE OR DELETE ON checklist_marks
  FOR EACH ROW EXECUTE FUNCTION integration_event_on_checklist();
--> statement-breakpoint
CREATE FUNCTION integration_event_on_decision() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A decision exists for integrators from its release on, never before.
  IF NEW.released_at IS NOT NULL AND (TG_OP = 'INSERT' OR OLD.released_at IS NULL) THEN
    PERFORM record_integration_event('decision.released', NEW.account_id,
      jsonb_build_object('code', NEW.code));
  END IF;
  IF NEW.reply IS NOT NULL AND (TG_OP = 'INSERT' OR OLD.reply IS DISTINCT FROM NEW.reply) THEN
    PERFORM record_integration_event('offer.replied', NEW.account_id,
      jsonb_build_object('reply', NEW.reply));
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER decisions_integration AFTER INSERT OR UPDATE ON decisions
  FOR EACH ROW EXECUTE FUNCTION integration_event_on_decision();
--> statement-breakpoint
CREATE FUNCTION integration_event_on_coursework() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM record_integration_event('coursework.updated', NEW.account_id,
    jsonb_build_object('answer_key', NEW.answer_key));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER coursework_updates_integration AFTER INSERT ON coursework_updates
  FOR EACH ROW EXECUTE FUNCTION integration_event_on_coursework();
--> statement-breakpoint
CREATE FUNCTION integration_event_on_sis_id() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.sis_id = NEW.sis_id THEN
    RETURN NULL;
  END IF;
  PERFORM record_integration_event('application.updated', NEW.account_id,
    jsonb_build_object('fields', jsonb_build_array('sis_id')));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER application_sis_ids_integration AFTER INSERT OR UPDATE ON application_sis_ids
  FOR EACH ROW EXECUTE FUNCTION integration_event_on_sis_id();
