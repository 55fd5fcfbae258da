-- Security (tokens, auditors, names).

-- Every token carries its account's token key, checked on each request: replacing the key
-- (DELETE /v1/tokens) refuses every token issued before, and a database recreated under the
-- same JWT secret refuses old tokens, because its accounts have other keys even where the ids
-- are the same. Tokens issued before this migration carry no key and are refused: log in again.
ALTER TABLE accounts ADD COLUMN token_key uuid NOT NULL DEFAULT gen_random_uuid();

-- Auditors see every game whole. Only the operator grants it, to an existing account
-- (`baumeister auditor grant NAME`); the server reads it on each request, never from a token.
ALTER TABLE accounts ADD COLUMN auditor boolean NOT NULL DEFAULT false;

-- What a name looks like, for telling apart names a reader could confuse: lower case, `0` as
-- `o`, `1`, `i` and `l` as `l`, `rn` as `m`, `vv` as `w`, and the separators `-`, `_`, `.` as one
-- `-`, none at either end. Names arrive trimmed, NFKC-normalised and checked by the server.
CREATE FUNCTION account_skeleton(name text) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN btrim(
        regexp_replace(
            replace(replace(translate(lower(name), '01i', 'oll'), 'rn', 'm'), 'vv', 'w'),
            '[-_.]+', '-', 'g'),
        '-');

-- One account per skeleton, enforced here so that two registrations racing for confusable
-- names cannot both succeed. Accounts registered before this rule keep their names: a later
-- one confusable with an earlier one gets a skeleton of its own (suffixed with its id), and
-- no new name confusable with either can be registered.
ALTER TABLE accounts ADD COLUMN skeleton text;
UPDATE accounts a SET skeleton = account_skeleton(a.name) || CASE
    WHEN EXISTS (SELECT 1 FROM accounts b
                 WHERE account_skeleton(b.name) = account_skeleton(a.name) AND b.id < a.id)
    THEN '#' || a.id ELSE '' END;
ALTER TABLE accounts ALTER COLUMN skeleton SET NOT NULL;
CREATE UNIQUE INDEX accounts_skeleton_key ON accounts (skeleton);
