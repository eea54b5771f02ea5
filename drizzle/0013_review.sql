CREATE TABLE "application_notes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"author_id" uuid,
	"author_label" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reader_conflicts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"reader_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"value" text NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "review_reads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"round" text NOT NULL,
	"reader_id" uuid,
	"status" text DEFAULT 'assigned' NOT NULL,
	"form_cycle" text NOT NULL,
	"form_version" integer NOT NULL,
	"answers" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"score" numeric(6, 2),
	"recommendation" text,
	"assigned_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"assigned_by" text NOT NULL,
	"saved_at" timestamp (3) with time zone,
	"submitted_at" timestamp (3) with time zone
);
--> statement-breakpoint
CREATE TABLE "review_rules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"position" integer NOT NULL,
	"name" text NOT NULL,
	"match" jsonb,
	"reader_ids" uuid[] NOT NULL,
	"cap" integer,
	"enabled" boolean DEFAULT true NOT NULL,
	"updated_by" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "staff_application_views" (
	"staff_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"viewed_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "staff_application_views_staff_id_account_id_pk" PRIMARY KEY("staff_id","account_id")
);
--> statement-breakpoint
ALTER TABLE "application_notes" ADD CONSTRAINT "application_notes_account_id_applications_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."applications"("account_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "application_notes" ADD CONSTRAINT "application_notes_author_id_staff_members_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."staff_members"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reader_conflicts" ADD CONSTRAINT "reader_conflicts_reader_id_staff_members_id_fk" FOREIGN KEY ("reader_id") REFERENCES "public"."staff_members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_reads" ADD CONSTRAINT "review_reads_account_id_applications_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."applications"("account_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_reads" ADD CONSTRAINT "review_reads_reader_id_staff_members_id_fk" FOREIGN KEY ("reader_id") REFERENCES "public"."staff_members"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_application_views" ADD CONSTRAINT "staff_application_views_staff_id_staff_members_id_fk" FOREIGN KEY ("staff_id") REFERENCES "public"."staff_members"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "staff_application_views" ADD CONSTRAINT "staff_application_views_account_id_applications_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."applications"("account_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "application_notes_account_idx" ON "application_notes" USING btree ("account_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "reader_conflicts_idx" ON "reader_conflicts" USING btree ("reader_id","kind","value");--> statement-breakpoint
CREATE UNIQUE INDEX "review_reads_round_idx" ON "review_reads" USING btree ("account_id","round");--> statement-breakpoint
CREATE UNIQUE INDEX "review_reads_reader_idx" ON "review_reads" USING btree ("account_id","reader_id");--> statement-breakpoint
CREATE INDEX "review_reads_queue_idx" ON "review_reads" USING btree ("reader_id","status","assigned_at");--> statement-breakpoint
CREATE INDEX "review_rules_position_idx" ON "review_rules" USING btree ("position");