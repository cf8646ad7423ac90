CREATE TABLE "suppressions" (
	"hash" text PRIMARY KEY NOT NULL,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "retention_runs" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "retention_runs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"counts" jsonb
);
--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "body_removed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "email_key" text GENERATED ALWAYS AS (lower(fields->>'email')) STORED;--> statement-breakpoint
CREATE INDEX "consent_records_submission" ON "consent_records" USING btree ("submission_id");--> statement-breakpoint
CREATE INDEX "outbox_to_address" ON "outbox" USING btree (lower("to_address"));--> statement-breakpoint
CREATE INDEX "outbox_submission" ON "outbox" USING btree ("submission_id");--> statement-breakpoint
CREATE INDEX "outbox_bodies_kept" ON "outbox" USING btree ("sent_at") WHERE "outbox"."status" = 'sent' and "outbox"."body_removed_at" is null;--> statement-breakpoint
CREATE INDEX "outbox_unsent_bodies_kept" ON "outbox" USING btree ("created_at") WHERE "outbox"."status" in ('failed', 'skipped', 'suppressed') and "outbox"."body_removed_at" is null;--> statement-breakpoint
CREATE INDEX "submissions_email_key" ON "submissions" USING btree ("email_key");