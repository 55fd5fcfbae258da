-- Name skeletons that are canonical: two names a reader could confuse always share one.
--
-- V3 contracted `rn` to `m` and `vv` to `w` greedily from the left, which depends on where a
-- run starts: `qvvvq` became `qwvq` but `qvwq` stayed `qvwq`, so both could be registered. Now
-- every letter that looks like two is expanded instead, each on its own: `w` as `vv`, `m` as
-- `rn`, `d` as `cl`. The letters they expand to expand no further, so a name's skeleton is the
-- same whichever of its look-alike spellings is given (`qvwq`, `qvvvq` and `qwvq` all become
-- `qvvvq`). As before: lower case, `0` as `o`, `1`, `i` and `l` as `l` (before the expansion,
-- so `cI` and `c1` look like `d` too), and the separators `-`, `_`, `.` as one `-`, none at
-- either end.
CREATE OR REPLACE FUNCTION account_skeleton(name text) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN btrim(
        regexp_replace(
            replace(replace(replace(translate(lower(name), '01i', 'oll'), 'w', 'vv'), 'm', 'rn'),
                    'd', 'cl'),
            '[-_.]+', '-', 'g'),
        '-');

-- The stored skeletons, recomputed. As in V3, accounts keep their names: where two existing
-- names now share a skeleton, the earlier account keeps it and the later one gets a skeleton
-- of its own (suffixed with its id); no new name confusable with either can be registered.
-- The index is rebuilt after the update, so that it never sees a skeleton half-way between
-- the old rule and the new one.
DROP INDEX accounts_skeleton_key;
UPDATE accounts a SET skeleton = r.skeleton || CASE WHEN r.n > 1 THEN '#' || a.id ELSE '' END
FROM (SELECT id, account_skeleton(name) AS skeleton,
             row_number() OVER (PARTITION BY account_skeleton(name) ORDER BY id) AS n
      FROM accounts) r
WHERE r.id = a.id;
CREATE UNIQUE INDEX accounts_skeleton_key ON accounts (skeleton);
