CREATE TABLE "application_receipts" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"number" text NOT NULL,
	"cycle" text NOT NULL,
	"sequence" integer NOT NULL,
	"submitted_at" timestamp with time zone NOT NULL,
	"fingerprint" text NOT NULL,
	"documents" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"reminder_sent_at" timestamp with time zone,
	CONSTRAINT "application_receipts_number_unique" UNIQUE("number")
);
--> statement-breakpoint
CREATE TABLE "decisions" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"recorded_by_id" uuid,
	"recorded_by_label" text NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
	"release_at" timestamp with time zone,
	"released_at" timestamp with time zone,
	"letter" text,
	"reply_deadline" timestamp with time zone,
	"reply" text,
	"replied_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "receipt_sequences" (
	"cycle" text PRIMARY KEY NOT NULL,
	"last" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "document_answers" ADD COLUMN "received_after_submit_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "application_receipts" ADD CONSTRAINT "application_receipts_account_id_applications_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."applications"("account_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "decisions" ADD CONSTRAINT "decisions_account_id_applications_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."applications"("account_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "decisions_due_idx" ON "decisions" USING btree ("release_at") WHERE "decisions"."released_at" is null and "decisions"."release_at" is not null;--> statement-breakpoint
CREATE INDEX "decisions_code_idx" ON "decisions" USING btree ("code","account_id");