CREATE TABLE "article_cover_files" (
	"version" integer NOT NULL,
	"width" integer NOT NULL,
	"format" text NOT NULL,
	"bytes" "bytea" NOT NULL,
	CONSTRAINT "article_cover_files_version_width_format_pk" PRIMARY KEY("version","width","format")
);
--> statement-breakpoint
CREATE TABLE "article_covers" (
	"version" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "article_covers_version_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"article_id" uuid NOT NULL,
	"alt" text NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	"updated_by" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "article_covers_article_id_unique" UNIQUE("article_id")
);
--> statement-breakpoint
ALTER TABLE "article_cover_files" ADD CONSTRAINT "article_cover_files_version_article_covers_version_fk" FOREIGN KEY ("version") REFERENCES "public"."article_covers"("version") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "article_covers" ADD CONSTRAINT "article_covers_article_id_articles_id_fk" FOREIGN KEY ("article_id") REFERENCES "public"."articles"("id") ON DELETE cascade ON UPDATE no action;