CREATE TABLE "booking_calendar_feed" (
	"name" text PRIMARY KEY NOT NULL,
	"url" text,
	"busy" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"events" integer DEFAULT 0 NOT NULL,
	"last_good_at" timestamp with time zone,
	"last_attempt_at" timestamp with time zone,
	"last_error" text,
	"warned_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
