CREATE TABLE "owner_diary" (
	"name" text PRIMARY KEY NOT NULL,
	"feed_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
