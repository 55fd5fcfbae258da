-- Replays and audits anyone can trust (docs/fairness.md).

-- Each game's commit-and-reveal randomness and its global identity. `uid` names the game
-- everywhere (its hash chain covers it, its signed head names it), so an export imported into
-- another server, where it gets another local id, keeps every hash and signature. `secret` is
-- shown only once the game has ended; `commitment` = SHA-256(secret) is shown from the start.
-- Games created before this migration have no row: their chain covers the local id and their
-- seeds were the server's choice (they are audited as before, but not exportable).
CREATE TABLE game_fairness (
    game_id      bigint NOT NULL PRIMARY KEY REFERENCES games (id),
    uid          uuid   NOT NULL UNIQUE,
    secret       bytea  NOT NULL CHECK (length(secret) = 32),
    commitment   bytea  NOT NULL CHECK (length(commitment) = 32),
    -- Each seat's own entropy, in seat order (given when creating or joining, or picked by the
    -- server), appended as seats are taken.
    client_seeds text[] NOT NULL DEFAULT '{}',
    -- Set for a game loaded by `POST /v1/games/import`: who sat where on the server it came
    -- from (its players have no accounts here).
    imported     jsonb
);

-- Snapshots of a game's state every `SNAPSHOT_EVERY` events (default 100), written lazily by the
-- folds that pass them (replays, cold starts, audits). Never trusted blindly: one is used only
-- when `hash` is the stored event's at `version` and `signature` (the server's Ed25519 key over
-- the uid, version, hash and SHA-256 of `state`) verifies; the audit compares each with its own
-- fold from event 1.
CREATE TABLE snapshots (
    game_id   bigint NOT NULL REFERENCES games (id),
    version   bigint NOT NULL CHECK (version > 0),
    state     jsonb  NOT NULL,
    hash      bytea  NOT NULL,
    signature bytea  NOT NULL,
    PRIMARY KEY (game_id, version)
);
