CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE TABLE "application_pdfs" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"status" text DEFAULT 'UNPROCESSED' NOT NULL,
	"pdf_key" text,
	"message" text,
	"source_updated_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lookup_records" (
	"category" text NOT NULL,
	"id" text NOT NULL,
	"name" text NOT NULL,
	"address_line_1" text,
	"city" text,
	"state" text,
	"zip" text,
	"ceeb" text,
	"country" text,
	CONSTRAINT "lookup_records_category_id_pk" PRIMARY KEY("category","id")
);
--> statement-breakpoint
CREATE TABLE "service_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "temporary_answer_sets" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"answers" jsonb NOT NULL,
	"label" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "application_pdfs" ADD CONSTRAINT "application_pdfs_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_tokens" ADD CONSTRAINT "service_tokens_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "lookup_records_name_trgm_idx" ON "lookup_records" USING gin ("name" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "lookup_records_ceeb_idx" ON "lookup_records" USING btree ("category","ceeb");--> statement-breakpoint
CREATE INDEX "service_tokens_account_idx" ON "service_tokens" USING btree ("account_id");