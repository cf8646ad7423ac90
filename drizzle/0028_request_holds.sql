ALTER TABLE "bookings" ADD COLUMN "holds" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "bookings" ADD COLUMN "client_key" text;