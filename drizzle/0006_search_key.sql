DROP INDEX "submissions_search";--> statement-breakpoint
CREATE INDEX "submissions_search_key" ON "submissions" USING gin (regexp_replace("search_text", '[!-/:-@[-`{-~]', '', 'g') gin_trgm_ops);--> statement-breakpoint
-- Nothing filters on these wide columns directly: ANALYZE leaves them out (less work, and on PGlite less of the memory its WebAssembly heap keeps).
ALTER TABLE "submissions" ALTER COLUMN "fields" SET STATISTICS 0;--> statement-breakpoint
ALTER TABLE "submissions" ALTER COLUMN "search_text" SET STATISTICS 0;
