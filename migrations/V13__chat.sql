-- Chat at the table: a side channel, never a game event. Messages are not in the chain, the
-- log, replays, exports or audits; they are kept here, keyed by game id first like every game
-- table. Each one is written with `NOTIFY baumeister_chat, '<game>:<id>:<channel>'` in the same
-- statement, delivered on commit to every server process (storage/src/chat.rs).

CREATE TABLE chat_messages (
    game_id        bigint      NOT NULL REFERENCES games (id),
    -- Global, so an operator names a message by its id alone (`baumeister chat remove ID`).
    id             bigint      GENERATED ALWAYS AS IDENTITY,
    -- `table`: the seated players write, everybody who may see the game reads;
    -- `spectators`: signed-in accounts without a seat write and read.
    channel        text        NOT NULL CHECK (channel IN ('table', 'spectators')),
    account_id     bigint      NOT NULL REFERENCES accounts (id),
    -- Plain text as sent (trimmed): 1 to 500 characters, no control characters but newlines.
    -- Never HTML: clients render it as text.
    text           text        NOT NULL CHECK (char_length(text) BETWEEN 1 AND 500),
    -- The game's version when the message was written, so a replay can show it in place.
    version        bigint      NOT NULL,
    at             timestamptz NOT NULL DEFAULT now(),
    -- An operator's removal: who, when and why. The text is kept for the record and withheld
    -- from every read.
    removed_at     timestamptz,
    removed_by     text,
    removed_reason text,
    PRIMARY KEY (game_id, id),
    CHECK ((removed_at IS NULL) = (removed_by IS NULL) AND (removed_at IS NULL) = (removed_reason IS NULL))
);
-- Pages of one channel, newest first.
CREATE INDEX chat_messages_by_channel ON chat_messages (game_id, channel, id DESC);
-- The operator's look-up by id.
CREATE UNIQUE INDEX chat_messages_id ON chat_messages (id);

-- Whom an account does not want to read: their messages are left out of its reads and pushes.
CREATE TABLE chat_mutes (
    account_id bigint      NOT NULL REFERENCES accounts (id),
    muted_id   bigint      NOT NULL REFERENCES accounts (id),
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (account_id, muted_id),
    CHECK (account_id <> muted_id)
);
