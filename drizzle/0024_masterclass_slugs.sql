ALTER TABLE "events" ADD COLUMN "slug" text;--> statement-breakpoint
UPDATE "events" SET "slug" = coalesce(nullif(trim(both '-' from left(regexp_replace(lower("title"), '[^a-z0-9]+', '-', 'g'), 80)), ''), 'masterclass') || '-' || left("id"::text, 8);--> statement-breakpoint
ALTER TABLE "events" ALTER COLUMN "slug" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_slug_unique" UNIQUE("slug");
