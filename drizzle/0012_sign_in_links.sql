CREATE TABLE "owner_sign_in_links" (
	"owner_key" text PRIMARY KEY NOT NULL,
	"token_id" text NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL
);
