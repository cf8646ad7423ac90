CREATE TABLE "outbox_bodies" (
	"id" uuid PRIMARY KEY NOT NULL,
	"html" text NOT NULL,
	"text" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "newsletter_issues" (
	"id" uuid PRIMARY KEY NOT NULL,
	"subject" text NOT NULL,
	"preheader" text DEFAULT '' NOT NULL,
	"body" text NOT NULL,
	"article_slug" text,
	"status" text DEFAULT 'draft' NOT NULL,
	"scheduled_for" timestamp with time zone,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"body_id" uuid,
	"prepared_through" uuid,
	"prepared_at" timestamp with time zone,
	"recipients" integer,
	"unsubscribed" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
DROP INDEX "outbox_due";--> statement-breakpoint
DROP INDEX "outbox_unsent_bodies_kept";--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "lane" text DEFAULT 'mail' NOT NULL;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "mailing_id" uuid;--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "handed_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "newsletter_issues_due" ON "newsletter_issues" USING btree ("scheduled_for") WHERE "newsletter_issues"."status" = 'scheduled';--> statement-breakpoint
CREATE INDEX "outbox_lane_due" ON "outbox" USING btree ("lane","next_attempt_at") WHERE "outbox"."status" = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "outbox_mailing_recipient" ON "outbox" USING btree ("mailing_id",lower("to_address")) WHERE "outbox"."mailing_id" is not null;--> statement-breakpoint
CREATE INDEX "outbox_mailing_named" ON "outbox" USING btree ("created_at") WHERE "outbox"."mailing_id" is not null and "outbox"."to_address" not like 'removed-%';--> statement-breakpoint
CREATE INDEX "outbox_unsent_bodies_kept" ON "outbox" USING btree ("created_at") WHERE "outbox"."status" in ('failed', 'skipped', 'suppressed', 'cancelled') and "outbox"."body_removed_at" is null;