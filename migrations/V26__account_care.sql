-- Accounts people manage themselves: a changed password, a forgotten one reset by mail, a deleted
-- account, and the download of everything stored about one (see docs/accounts.md).

-- A deleted account keeps its row (its seats, commands, chat messages and ratings point at it;
-- every game it played stays whole) under a pseudonym, with nothing left that identifies the
-- person: no password, no address, no settings. `deleted_at` also tells the turn clock that its
-- seats never move by themselves (`departed_deadlines` below).
ALTER TABLE accounts ADD COLUMN deleted_at timestamptz;
CREATE INDEX accounts_deleted ON accounts (id) WHERE deleted_at IS NOT NULL;

-- One-use tokens of the "forgot my password" mail. Only the SHA-256 of a token is stored (the
-- token itself is only in the mail); a new request leaves earlier tokens valid until they are
-- used or expire, and a reset or a changed password ends all of them (`spent`). Spent rows stay
-- a day: the bound on mails per hour counts them.
CREATE TABLE password_resets (
    token_hash bytea       PRIMARY KEY CHECK (octet_length(token_hash) = 32),
    account_id bigint      NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    expires_ms bigint      NOT NULL,
    spent      boolean     NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL DEFAULT now()
);
-- The per-account bound on requests counts the recent rows.
CREATE INDEX password_resets_by_account ON password_resets (account_id, created_at);

-- Names of deleted accounts, not to be registered again (nor any name a reader could confuse
-- with one) until `retired_until`: nobody takes over a known name and its reputation at once.
CREATE TABLE retired_names (
    skeleton      text        PRIMARY KEY,
    retired_until timestamptz NOT NULL
);

-- A deleted account's seat to act gets a turn deadline of `at` (now), also in a game without
-- the turn clock, so the clock's step makes its default move (or hands it to the clock's bot):
-- nobody waits for a player who is gone.
CREATE FUNCTION departed_deadlines(deadlines bigint[], seat_count smallint, seat smallint, at bigint)
    RETURNS bigint[]
    LANGUAGE plpgsql IMMUTABLE
AS $$
DECLARE
    result bigint[] := coalesce(deadlines, array_fill(NULL::bigint, ARRAY[seat_count::int]));
BEGIN
    result[seat + 1] := at;
    RETURN result;
END
$$;
