-- Moderation: the moderator role, suspensions, players' reports and the log of every
-- moderator's action (docs/moderation.md).

-- Granted and revoked by the operator (`baumeister moderator grant|revoke`), checked with the
-- token on every request like `auditor`.
ALTER TABLE accounts ADD COLUMN moderator boolean NOT NULL DEFAULT false;
-- A suspension in force until `suspended_until_ms` (by the store's clock): the account may not
-- chat, create or join games or invite while it lasts. Lifting clears both columns; the log
-- keeps every suspension and lift.
ALTER TABLE accounts ADD COLUMN suspended_until_ms bigint;
ALTER TABLE accounts ADD COLUMN suspension_reason text;
ALTER TABLE accounts ADD CONSTRAINT accounts_suspension_whole
    CHECK ((suspended_until_ms IS NULL) = (suspension_reason IS NULL));

-- A player's report of a chat message or of a player. A message's report names its author as
-- the reported account and its game. Reports go with the accounts they name: the moderation
-- log keeps names, not ids, for the record.
CREATE TABLE reports (
    id          bigint      GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    reporter_id bigint      NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    reported_id bigint      NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    message_id  bigint      REFERENCES chat_messages (id) ON DELETE CASCADE,
    game_id     bigint,
    category    text        NOT NULL CHECK (category IN ('abuse', 'cheating', 'spam', 'other')),
    -- The reporter's words: 0 to 1000 characters, plain text.
    text        text        NOT NULL CHECK (char_length(text) <= 1000),
    created_ms  bigint      NOT NULL,
    -- `open` until a moderator dismisses it or acts on it.
    state       text        NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'dismissed', 'actioned')),
    resolved_by text,
    resolved_ms bigint,
    resolution  text,
    CHECK ((state = 'open') = (resolved_by IS NULL)),
    CHECK ((message_id IS NULL) = (game_id IS NULL))
);
-- One open report per reporter and thing reported: reporting it again finds this one.
CREATE UNIQUE INDEX reports_once ON reports (reporter_id, reported_id, coalesce(message_id, 0))
    WHERE state = 'open';
-- The queue: open ones first, oldest first; then the resolved, newest first.
CREATE INDEX reports_queue ON reports ((state <> 'open'), id);

-- Every moderator's action: who, when, what, on whom, why. Names are kept as text, so the
-- record outlives the accounts it names.
CREATE TABLE moderation_log (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at_ms      bigint NOT NULL,
    -- The moderator's account name, or the operator's name for a command-line action.
    moderator  text   NOT NULL,
    action     text   NOT NULL CHECK (action IN ('remove_message', 'suspend', 'lift_suspension',
                                                 'dismiss_report', 'act_on_report',
                                                 'grant_moderator', 'revoke_moderator')),
    -- The account acted on (a removed message's author, the suspended account, …).
    account    text,
    message_id bigint,
    report_id  bigint,
    until_ms   bigint,
    reason     text   NOT NULL
);
