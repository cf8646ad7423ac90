ALTER TABLE "newsletter_issues" ADD COLUMN "archive_slug" text;--> statement-breakpoint
ALTER TABLE "newsletter_issues" ADD COLUMN "archived_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "newsletter_issues" ADD CONSTRAINT "newsletter_issues_archive_slug_unique" UNIQUE("archive_slug");