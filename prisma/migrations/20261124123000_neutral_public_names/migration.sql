-- Issue 17, item 18: accounts created without a display name were shown publicly under their email's local
-- part. Give those (and any whose name is an email, or empty) the neutral handle app/domain/public-name.ts
-- makes for new accounts: 'creator-' and the first 8 hex digits of the id. Owners can change it in Settings.
UPDATE "User"
SET "displayName" = 'creator-' || substr(replace(id::text, '-', ''), 1, 8)
WHERE "displayName" IS NULL
   OR btrim("displayName") = ''
   OR "displayName" ~ '[^[:space:]@]+@[^[:space:]@]+'
   OR (email IS NOT NULL AND lower(btrim("displayName")) = lower(split_part(email, '@', 1)));
