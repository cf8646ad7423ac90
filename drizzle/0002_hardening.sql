CREATE TABLE "mail_throttle" (
	"key" text PRIMARY KEY NOT NULL,
	"last_at" timestamp with time zone DEFAULT now() NOT NULL,
	"holder" bigint
);
--> statement-breakpoint
CREATE TABLE "used_tokens" (
	"token_id" text PRIMARY KEY NOT NULL,
	"purpose" text NOT NULL,
	"used_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "outbox" ADD COLUMN "audience" text DEFAULT 'owner' NOT NULL;--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "request_hash" text;--> statement-breakpoint
CREATE INDEX "used_tokens_expires_at" ON "used_tokens" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "outbox_visitor_sent" ON "outbox" USING btree ("sent_at") WHERE "outbox"."audience" = 'visitor';