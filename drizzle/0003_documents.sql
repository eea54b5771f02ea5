CREATE TABLE "document_answers" (
	"account_id" uuid NOT NULL,
	"answer_key" text NOT NULL,
	"file_key" text NOT NULL,
	"file_name" text NOT NULL,
	"file_size" integer NOT NULL,
	"status" text DEFAULT 'UNPROCESSED' NOT NULL,
	"message" text,
	"pdf_key" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "document_answers_account_id_answer_key_pk" PRIMARY KEY("account_id","answer_key")
);
--> statement-breakpoint
CREATE TABLE "document_uploads" (
	"file_key" text PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"answer_key" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "document_answers" ADD CONSTRAINT "document_answers_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "document_uploads" ADD CONSTRAINT "document_uploads_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "document_answers_pending_idx" ON "document_answers" USING btree ("status") WHERE "document_answers"."status" in ('UNPROCESSED', 'IN_PROGRESS');--> statement-breakpoint
CREATE INDEX "document_uploads_account_idx" ON "document_uploads" USING btree ("account_id");