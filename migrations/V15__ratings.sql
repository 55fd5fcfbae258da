-- Playing together: ratings per kind (Glicko-2) and rematches. Both live beside the games, keyed
-- by game id or account: never an event, never in a chain.

-- `rated: false` at creation makes a game unrated. Beside the kind's own options, not among them.
ALTER TABLE games ADD COLUMN rated boolean NOT NULL DEFAULT true;

-- An account's rating in one kind, on the Glicko scale. `games` counts its rated games and is
-- the guard of concurrent updates (see `rate_game`).
CREATE TABLE ratings (
    kind       text        NOT NULL,
    account_id bigint      NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    rating     float8      NOT NULL,
    deviation  float8      NOT NULL,
    volatility float8      NOT NULL,
    games      integer     NOT NULL CHECK (games > 0),
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (kind, account_id)
);
CREATE INDEX ratings_leaderboard ON ratings (kind, rating DESC, account_id);

-- What each rated game did to its players' ratings: written by the statement that finishes it.
CREATE TABLE rating_changes (
    game_id           bigint   NOT NULL REFERENCES games (id),
    seat              smallint NOT NULL,
    account_id        bigint   NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    place             smallint NOT NULL,
    rating_before     float8   NOT NULL,
    deviation_before  float8   NOT NULL,
    volatility_before float8   NOT NULL,
    rating            float8   NOT NULL,
    deviation         float8   NOT NULL,
    volatility        float8   NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX rating_changes_by_account ON rating_changes (account_id, game_id DESC);

-- Applies a finished game's rating changes, computed by the server from the ratings it read
-- (`storage/src/rating/`), in the append's own statement. `games` is each player's count of
-- rated games when they were read: when a rating moved since (another game of the same player
-- finished first), the whole append fails with serialization_failure and the command is decided
-- again on fresh ratings. Called only when the game is rated and the append's guard let it
-- through.
CREATE FUNCTION rate_game(p_game bigint, p_kind text, p_changes jsonb) RETURNS integer
    LANGUAGE plpgsql VOLATILE
AS $$
DECLARE
    c record;
    hit integer;
    n integer := 0;
BEGIN
    FOR c IN SELECT * FROM jsonb_to_recordset(p_changes) AS x(
            account_id bigint, seat smallint, place smallint, games integer,
            rating_before float8, deviation_before float8, volatility_before float8,
            rating float8, deviation float8, volatility float8) LOOP
        IF c.games = 0 THEN
            INSERT INTO ratings (kind, account_id, rating, deviation, volatility, games)
            VALUES (p_kind, c.account_id, c.rating, c.deviation, c.volatility, 1)
            ON CONFLICT DO NOTHING;
        ELSE
            UPDATE ratings r SET rating = c.rating, deviation = c.deviation,
                                 volatility = c.volatility, games = r.games + 1, updated_at = now()
            WHERE r.kind = p_kind AND r.account_id = c.account_id AND r.games = c.games;
        END IF;
        GET DIAGNOSTICS hit = ROW_COUNT;
        IF hit = 0 THEN
            RAISE EXCEPTION 'the rating of account % in % moved while game % finished',
                c.account_id, p_kind, p_game USING ERRCODE = 'serialization_failure';
        END IF;
        INSERT INTO rating_changes (game_id, seat, account_id, place, rating_before,
                                    deviation_before, volatility_before, rating, deviation, volatility)
        VALUES (p_game, c.seat, c.account_id, c.place, c.rating_before, c.deviation_before,
                c.volatility_before, c.rating, c.deviation, c.volatility);
        n := n + 1;
    END LOOP;
    RETURN n;
END
$$;

-- Rematches: a proposal to play a finished game again with the same kind, options and players,
-- seats rotated by one. One proposal per game is open or accepted at a time; a declined or
-- expired one may be followed by another.
CREATE TABLE rematches (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    game_id     bigint      NOT NULL REFERENCES games (id),
    proposed_by bigint      NOT NULL REFERENCES accounts (id),
    proposed_at timestamptz NOT NULL DEFAULT now(),
    expires_at  timestamptz NOT NULL,
    state       text        NOT NULL CHECK (state IN ('open', 'accepted', 'declined', 'expired')),
    new_game_id bigint      REFERENCES games (id),
    decided_at  timestamptz
);
CREATE UNIQUE INDEX rematches_current ON rematches (game_id) WHERE state IN ('open', 'accepted');
CREATE UNIQUE INDEX rematches_new_game ON rematches (new_game_id);

-- Each player's answer: `seat` at the finished game, `new_seat` at the rematch.
CREATE TABLE rematch_answers (
    rematch_id  bigint   NOT NULL REFERENCES rematches (id),
    seat        smallint NOT NULL,
    new_seat    smallint NOT NULL,
    account_id  bigint   NOT NULL REFERENCES accounts (id),
    answer      text     CHECK (answer IN ('accepted', 'declined')),
    client_seed text,
    answered_at timestamptz,
    PRIMARY KEY (rematch_id, seat)
);
