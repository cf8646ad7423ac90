CREATE TABLE "booking_availability" (
	"name" text PRIMARY KEY NOT NULL,
	"settings" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "bookings_holds" ON "bookings" USING btree ("first_choice_date") WHERE status = 'requested';--> statement-breakpoint
CREATE INDEX "bookings_sessions" ON "bookings" USING btree ("session_date") WHERE status = 'confirmed';