-- Private games and invitations. Invitations stand beside a game: they never enter its event
-- stream, chain, replay, audit or export, which stay exactly what they were. A game's
-- visibility is a lobby property like its status (not part of its options, so not of its set-up
-- command either): `open` games are listed and anybody joins; `private` ones are listed to, and
-- readable by, only their players, the accounts invited by name, and auditors, and joined only
-- with an invitation.
ALTER TABLE games ADD COLUMN visibility text NOT NULL DEFAULT 'open'
    CHECK (visibility IN ('open', 'private'));

-- One row per invitation, keyed by game id first (as every game table: see V1). An invitation
-- names an account (`account_id`) or is a link (`code_hash`: SHA-256 of its code, so a read of
-- the database does not hand out codes; the code itself is shown once, when it is created).
CREATE TABLE invitations (
    game_id     bigint      NOT NULL REFERENCES games (id),
    id          bigint      GENERATED ALWAYS AS IDENTITY,
    invited_by  bigint      NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    account_id  bigint      REFERENCES accounts (id) ON DELETE CASCADE,
    code_hash   bytea       CHECK (octet_length(code_hash) = 32),
    -- A link's cap on the seats it fills (NULL: until the game is full).
    max_uses    integer     CHECK (max_uses > 0),
    uses        integer     NOT NULL DEFAULT 0,
    -- `accepted`/`declined` answer an invitation by name; `revoked` ends either kind. Expiry is
    -- `expires_ms`, not a state.
    state       text        NOT NULL DEFAULT 'pending'
                            CHECK (state IN ('pending', 'accepted', 'declined', 'revoked')),
    expires_ms  bigint      NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    answered_at timestamptz,
    PRIMARY KEY (game_id, id),
    CHECK ((account_id IS NULL) <> (code_hash IS NULL))
);
-- A link is found by its hash (no comparison of codes in the server's memory).
CREATE UNIQUE INDEX invitations_by_code ON invitations (game_id, code_hash) WHERE code_hash IS NOT NULL;
-- One pending invitation per account and game.
CREATE UNIQUE INDEX invitations_pending ON invitations (game_id, account_id)
    WHERE account_id IS NOT NULL AND state = 'pending';
-- An account's own invitations (`GET /v1/me/invitations`, and whether it may see a game).
CREATE INDEX invitations_by_account ON invitations (account_id, id) WHERE account_id IS NOT NULL;
CREATE INDEX invitations_by_id ON invitations (id);

-- The open-games list filters on free seats and the turn clock's option.
CREATE INDEX games_open_by_kind ON games (kind, id DESC) WHERE status = 'open' AND visibility = 'open';

-- Webhooks may ask for `invitation` notices.
ALTER TABLE webhooks DROP CONSTRAINT webhooks_kinds_check;
ALTER TABLE webhooks ADD CONSTRAINT webhooks_kinds_check
    CHECK (kinds <@ ARRAY['your_turn', 'game_started', 'game_finished', 'deadline_soon', 'invitation']
           AND cardinality(kinds) > 0);
