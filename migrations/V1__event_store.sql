-- Baumeister's event store. Every game table is keyed by game id first, so that the schema can
-- be distributed by game id (Citus) when one PostgreSQL is not enough; no command touches two
-- games.

CREATE TABLE accounts (
    id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name          text        NOT NULL,
    password_hash text        NOT NULL,
    created_at    timestamptz NOT NULL DEFAULT now()
);
-- Names are unique regardless of case: "Anna" and "anna" would confuse players.
CREATE UNIQUE INDEX accounts_name_key ON accounts (lower(name));

-- The lobby projection: one row per game, updated in every append's transaction.
CREATE TABLE games (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    kind        text        NOT NULL,
    options     jsonb       NOT NULL,
    seat_count  smallint    NOT NULL CHECK (seat_count > 0),
    status      text        NOT NULL CHECK (status IN ('open', 'active', 'finished')),
    version     bigint      NOT NULL DEFAULT 0,
    to_act      smallint[]  NOT NULL DEFAULT '{}',
    -- The domain's status (who must act, scores, winners) as of `version`.
    progress    jsonb,
    created_by  bigint      NOT NULL REFERENCES accounts (id),
    created_at  timestamptz NOT NULL DEFAULT now(),
    updated_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX games_lobby ON games (status, kind, id DESC);

CREATE TABLE seats (
    game_id    bigint      NOT NULL REFERENCES games (id),
    seat       smallint    NOT NULL,
    account_id bigint      NOT NULL REFERENCES accounts (id),
    joined_at  timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, account_id)
);
CREATE INDEX seats_by_account ON seats (account_id, game_id);

-- Every accepted command (and each game's set-up), with what an audit needs to run `decide`
-- again and get byte-identical events: the body, the RNG seed and the clock.
CREATE TABLE commands (
    game_id         bigint      NOT NULL REFERENCES games (id),
    id              bigint      GENERATED ALWAYS AS IDENTITY,
    account_id      bigint      REFERENCES accounts (id),
    seat            smallint,
    idempotency_key text,
    body            jsonb       NOT NULL,
    seed            bigint      NOT NULL,
    now_ms          bigint      NOT NULL,
    -- The response first given, returned again for a replayed Idempotency-Key.
    response        jsonb       NOT NULL,
    received_at     timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (game_id, id),
    CONSTRAINT commands_idempotency UNIQUE (game_id, account_id, idempotency_key)
);

CREATE TABLE events (
    game_id     bigint      NOT NULL REFERENCES games (id),
    version     bigint      NOT NULL CHECK (version > 0),
    -- Global order, for subscribers that follow every game.
    position    bigint      GENERATED ALWAYS AS IDENTITY,
    type        text        NOT NULL,
    payload     jsonb       NOT NULL,
    command_id  bigint      NOT NULL,
    account_id  bigint,
    seat        smallint,
    recorded_at timestamptz NOT NULL DEFAULT now(),
    -- sha256 over the previous event's hash and this event (tamper evidence).
    hash        bytea       NOT NULL,
    -- The final judge of concurrency: two appends at the same version cannot both commit.
    CONSTRAINT events_version PRIMARY KEY (game_id, version)
);
CREATE INDEX events_position ON events (position);

-- Per-seat views (viewer = seat; -1 = spectators), derived from the events.
CREATE TABLE views (
    game_id bigint   NOT NULL REFERENCES games (id),
    viewer  smallint NOT NULL,
    version bigint   NOT NULL,
    view    jsonb    NOT NULL,
    PRIMARY KEY (game_id, viewer)
);
