CREATE TABLE "college_transcripts" (
	"account_id" uuid NOT NULL,
	"grid_key" text NOT NULL,
	"storage_key" text NOT NULL,
	"file_name" text NOT NULL,
	"byte_size" integer NOT NULL,
	"attached_by_id" uuid,
	"attached_by_label" text NOT NULL,
	"attached_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "college_transcripts_account_id_grid_key_pk" PRIMARY KEY("account_id","grid_key")
);
--> statement-breakpoint
CREATE TABLE "credit_estimates" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"estimate" jsonb NOT NULL,
	"released_by_id" uuid,
	"released_by_label" text NOT NULL,
	"released_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "credit_requirement_statuses" (
	"account_id" uuid NOT NULL,
	"requirement_id" text NOT NULL,
	"status" text NOT NULL,
	CONSTRAINT "credit_requirement_statuses_account_id_requirement_id_pk" PRIMARY KEY("account_id","requirement_id")
);
--> statement-breakpoint
CREATE TABLE "credit_reviews" (
	"account_id" uuid NOT NULL,
	"course_ref" text NOT NULL,
	"status" text NOT NULL,
	"grade" text,
	"units" numeric(6, 2),
	"mapping_kind" text,
	"local_course" text,
	"local_units" numeric(6, 2),
	"satisfies" jsonb,
	"reason" text DEFAULT '' NOT NULL,
	"reviewed_by_id" uuid,
	"reviewed_by_label" text NOT NULL,
	"reviewed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "credit_reviews_account_id_course_ref_pk" PRIMARY KEY("account_id","course_ref")
);
--> statement-breakpoint
CREATE TABLE "credit_summaries" (
	"account_id" uuid PRIMARY KEY NOT NULL,
	"courses" integer NOT NULL,
	"mapped" integer NOT NULL,
	"needs_review" integer NOT NULL,
	"verified" integer NOT NULL,
	"colleges" text[] NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "equivalencies" (
	"sending_ceeb" text NOT NULL,
	"course_key" text NOT NULL,
	"subject" text NOT NULL,
	"number" text NOT NULL,
	"title" text NOT NULL,
	"units" numeric(6, 2) NOT NULL,
	"local_course" text NOT NULL,
	"local_units" numeric(6, 2) NOT NULL,
	"kind" text NOT NULL,
	"satisfies" jsonb NOT NULL,
	"line" integer NOT NULL,
	CONSTRAINT "equivalencies_sending_ceeb_course_key_pk" PRIMARY KEY("sending_ceeb","course_key")
);
--> statement-breakpoint
CREATE TABLE "equivalency_tables" (
	"sending_ceeb" text PRIMARY KEY NOT NULL,
	"row_count" integer NOT NULL,
	"file_name" text NOT NULL,
	"imported_by_label" text NOT NULL,
	"imported_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "college_transcripts" ADD CONSTRAINT "college_transcripts_account_id_applications_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."applications"("account_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_estimates" ADD CONSTRAINT "credit_estimates_account_id_applications_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."applications"("account_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_requirement_statuses" ADD CONSTRAINT "credit_requirement_statuses_account_id_credit_summaries_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."credit_summaries"("account_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_reviews" ADD CONSTRAINT "credit_reviews_account_id_applications_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."applications"("account_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "credit_summaries" ADD CONSTRAINT "credit_summaries_account_id_applications_account_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."applications"("account_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "credit_requirement_statuses_filter_idx" ON "credit_requirement_statuses" USING btree ("requirement_id","status","account_id");--> statement-breakpoint
CREATE INDEX "credit_summaries_review_idx" ON "credit_summaries" USING btree ("needs_review","account_id");