-- Decision 093: work held by one instance at a time across all of them, by a lease that lapses
-- when its instance dies (a sign-in's file being made: one at a time, whichever instance is asked).
CREATE TABLE "work_leases" (
	"key" text PRIMARY KEY NOT NULL,
	"holder" text NOT NULL,
	"until" timestamp with time zone NOT NULL
);
