CREATE TABLE "owner_alert_cursor" (
	"name" text PRIMARY KEY NOT NULL,
	"submissions_after" timestamp with time zone NOT NULL,
	"submissions_after_id" uuid,
	"failures_after" timestamp with time zone NOT NULL,
	"failures_after_id" bigint,
	"claimed_until" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "owner_push_devices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"email" text NOT NULL,
	"endpoint" text NOT NULL,
	"p256dh" text NOT NULL,
	"auth" text NOT NULL,
	"name" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_sent_at" timestamp with time zone,
	CONSTRAINT "owner_push_devices_endpoint_unique" UNIQUE("endpoint")
);
--> statement-breakpoint
CREATE INDEX "owner_push_devices_email" ON "owner_push_devices" USING btree ("email");--> statement-breakpoint
CREATE INDEX "outbox_failed_at" ON "outbox" USING btree ("last_attempt_at") WHERE "outbox"."status" = 'failed';