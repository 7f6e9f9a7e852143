-- Decision 086: the SHA-256 of what a document sent for signature prints (its filled texts, save the
-- day), made again when the signer opens, downloads or signs: an owner's tax number, the property's
-- address, the agency's details or the template changed since sending void the link. Requests sent
-- before this keep null and are checked by the record's version only.
ALTER TABLE "sign_requests" ADD COLUMN "fill_sha256" text;
