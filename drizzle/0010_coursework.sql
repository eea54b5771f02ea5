CREATE TABLE "coursework_totals" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"transfer_gpa" numeric(4, 2),
	"transfer_units" numeric(8, 2) NOT NULL,
	"in_progress_units" numeric(8, 2) NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "coursework_updates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"answer_key" text NOT NULL,
	"answer" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "coursework_totals" ADD CONSTRAINT "coursework_totals_account_id_applications_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."applications"("account_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "coursework_updates" ADD CONSTRAINT "coursework_updates_account_id_applications_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."applications"("account_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "coursework_totals_gpa_idx" ON "coursework_totals" USING btree ("transfer_gpa","account_id");--> statement-breakpoint
CREATE INDEX "coursework_totals_units_idx" ON "coursework_totals" USING btree ("transfer_units","account_id");--> statement-breakpoint
CREATE INDEX "coursework_updates_account_idx" ON "coursework_updates" USING btree ("account_id","created_at");