CREATE TABLE "analytics_live" (
	"day" date NOT NULL,
	"dimension" text NOT NULL,
	"value" text NOT NULL,
	"visitors" integer NOT NULL,
	"views" integer NOT NULL,
	CONSTRAINT "analytics_live_day_dimension_value_pk" PRIMARY KEY("day","dimension","value")
);
--> statement-breakpoint
CREATE TABLE "analytics_live_days" (
	"day" date PRIMARY KEY NOT NULL,
	"visitors" integer NOT NULL,
	"views" integer NOT NULL,
	"counted_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "analytics_monthly" (
	"month" date NOT NULL,
	"dimension" text NOT NULL,
	"value" text NOT NULL,
	"visitors" integer NOT NULL,
	"views" integer NOT NULL,
	CONSTRAINT "analytics_monthly_month_dimension_value_pk" PRIMARY KEY("month","dimension","value")
);
--> statement-breakpoint
CREATE TABLE "analytics_months" (
	"month" date PRIMARY KEY NOT NULL,
	"visitors" integer NOT NULL,
	"views" integer NOT NULL,
	"rolled_up_at" timestamp with time zone DEFAULT now() NOT NULL
);
