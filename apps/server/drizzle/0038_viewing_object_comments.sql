-- What the client said of each property shown at a viewing ("too dark", "wants to see it again
-- with his wife"), beside its result (decision 015). Optional; at most 1000 characters (the contract).
ALTER TABLE "viewing_objects" ADD COLUMN "comment" text;
