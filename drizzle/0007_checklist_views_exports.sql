CREATE TABLE "checklist_counts" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"missing" integer NOT NULL,
	"source_updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "checklist_marks" (
	"account_id" uuid NOT NULL,
	"item_key" text NOT NULL,
	"state" text NOT NULL,
	"set_by_type" text NOT NULL,
	"set_by_id" uuid,
	"set_by_label" text,
	"set_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "checklist_marks_account_id_item_key_pk" PRIMARY KEY("account_id","item_key")
);
--> statement-breakpoint
CREATE TABLE "export_jobs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"staff_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"query" text NOT NULL,
	"status" text NOT NULL,
	"total" integer DEFAULT 0 NOT NULL,
	"done" integer DEFAULT 0 NOT NULL,
	"storage_key" text,
	"byte_size" bigint,
	"message" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"expires_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "staff_saved_views" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"staff_id" uuid NOT NULL,
	"name" text NOT NULL,
	"query" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "checklist_counts" ADD CONSTRAINT "checklist_counts_account_id_applications_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."applications"("account_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checklist_marks" ADD CONSTRAINT "checklist_marks_account_id_applications_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."applications"("account_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_saved_views" ADD CONSTRAINT "staff_saved_views_staff_id_staff_members_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff_members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "checklist_counts_missing_idx" ON "checklist_counts" USING btree ("missing","account_id");--> statement-breakpoint
CREATE INDEX "checklist_counts_account_missing_idx" ON "checklist_counts" USING btree ("account_id","missing");--> statement-breakpoint
CREATE INDEX "export_jobs_staff_idx" ON "export_jobs" USING btree ("staff_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "staff_saved_views_name_idx" ON "staff_saved_views" USING btree ("staff_id",lower("name"));