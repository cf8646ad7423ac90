-- The console reads submissions newest first: received_at desc, id desc, which Postgres orders with
-- nulls first. The inbox indexes were made "desc nulls last", an order no query asks for, so every
-- list and search sorted the rows it had fetched. They now have the order of the queries, and the
-- delivered and the spam submissions have a partial index each (see schema.ts).
-- The search index gains the UTC day of each row (btree_gin, a trusted extension since Postgres 13):
-- a search asks it for the rows holding a text since a given day and fetches only those.
CREATE EXTENSION IF NOT EXISTS btree_gin;--> statement-breakpoint
DROP INDEX "submissions_search_key";--> statement-breakpoint
DROP INDEX "submissions_received_at";--> statement-breakpoint
DROP INDEX "submissions_inbox";--> statement-breakpoint
DROP INDEX "submissions_inbox_form";--> statement-breakpoint
CREATE INDEX "submissions_spam" ON "submissions" USING btree ("received_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE "submissions"."spam";--> statement-breakpoint
CREATE INDEX "submissions_search_key_day" ON "submissions" USING gin (regexp_replace("search_text", '[!-/:-@[-`{-~]', '', 'g') gin_trgm_ops,(("received_at" at time zone 'UTC')::date));--> statement-breakpoint
CREATE INDEX "submissions_received_at" ON "submissions" USING btree ("received_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "submissions_inbox" ON "submissions" USING btree ("received_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE not "submissions"."spam";--> statement-breakpoint
CREATE INDEX "submissions_inbox_form" ON "submissions" USING btree ("form_type","spam","received_at" DESC NULLS FIRST,"id" DESC NULLS FIRST);