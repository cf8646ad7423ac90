CREATE TABLE "lead_notes" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "lead_notes_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"submission_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"author" text NOT NULL,
	"subject" text,
	"body" text NOT NULL,
	"outbox_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "submissions" ADD COLUMN "lead_state" text DEFAULT 'new' NOT NULL;--> statement-breakpoint
ALTER TABLE "lead_notes" ADD CONSTRAINT "lead_notes_submission_id_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_notes" ADD CONSTRAINT "lead_notes_outbox_id_outbox_id_fk" FOREIGN KEY ("outbox_id") REFERENCES "public"."outbox"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "lead_notes_submission" ON "lead_notes" USING btree ("submission_id","created_at");--> statement-breakpoint
CREATE INDEX "lead_notes_outbox" ON "lead_notes" USING btree ("outbox_id");--> statement-breakpoint
CREATE INDEX "submissions_new_leads" ON "submissions" USING btree ("received_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE not "submissions"."spam" and "submissions"."lead_state" = 'new';