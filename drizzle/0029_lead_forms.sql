ALTER TABLE "submissions" ALTER COLUMN "lead_state" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "submissions" ALTER COLUMN "lead_state" DROP NOT NULL;--> statement-breakpoint
-- Only a message and a session request are leads (decision 054): the other forms' submissions the
-- owner has not yet answered or put aside stop being "New" leads.
UPDATE "submissions" SET "lead_state" = NULL WHERE "form_type" NOT IN ('contact', 'booking') AND "lead_state" = 'new';
