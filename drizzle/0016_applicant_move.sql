ALTER TABLE "bookings" ADD COLUMN "move_date" date;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "move_time" text;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "move_asked_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "bookings_move_holds" ON "bookings" USING btree ("move_date") WHERE move_date is not null;