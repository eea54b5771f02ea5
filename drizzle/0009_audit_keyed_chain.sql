ALTER TABLE "audit_events" ADD COLUMN "mac" text;--> statement-breakpoint
ALTER TABLE "audit_events" ADD COLUMN "key_id" text;