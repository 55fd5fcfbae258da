-- Notices to people (issue 22): "your turn" and the rest by email and by Web Push, queued in
-- the same statement or transaction as what causes them, beside the webhook outbox (V6).

-- An account's choices: its language, what it wants by which channel, and its email address.
-- A row exists once the account set anything, added an address or subscribed a device.
CREATE TABLE notice_settings (
    account_id          bigint  PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
    language            text    NOT NULL DEFAULT 'en' CHECK (language IN ('en', 'de')),
    email_kinds         text[]  NOT NULL DEFAULT ARRAY['your_turn', 'game_started', 'game_finished', 'deadline_soon', 'invitation']
                                CHECK (email_kinds <@ ARRAY['your_turn', 'game_started', 'game_finished', 'deadline_soon', 'invitation']),
    push_kinds          text[]  NOT NULL DEFAULT ARRAY['your_turn', 'game_started', 'game_finished', 'deadline_soon', 'invitation']
                                CHECK (push_kinds <@ ARRAY['your_turn', 'game_started', 'game_finished', 'deadline_soon', 'invitation']),
    -- 0: every notice by itself, at once; N: at most one mail every N hours (a digest).
    email_every_hours   integer NOT NULL DEFAULT 0 CHECK (email_every_hours BETWEEN 0 AND 168),
    -- Never shown to anybody but the account itself.
    email               text,
    email_confirmed_at  timestamptz,
    -- SHA-256 of the confirmation link's token (the token itself is only in the mail).
    email_token_hash    bytea,
    email_token_expires_ms bigint,
    -- The one-click unsubscribe link's token (RFC 8058): in every mail, so kept as it is.
    unsubscribe_token   text    NOT NULL UNIQUE,
    -- When the next mail may go (digests and retries); a worker moves it forward while it sends.
    email_next_ms       bigint  NOT NULL DEFAULT 0
);

-- A device's Web Push subscription (RFC 8030), with the keys its messages are encrypted to
-- (RFC 8291). Dropped when the push service says it is gone (404/410).
CREATE TABLE push_subscriptions (
    id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    account_id  bigint      NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    endpoint    text        NOT NULL,
    p256dh      bytea       NOT NULL,
    auth        bytea       NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now(),
    UNIQUE (account_id, endpoint)
);

-- The outbox of notices to people: one row per notice and channel (a push row per device).
-- Mails are sent per account (one message, or a digest, for all of its due rows); pushes per row.
CREATE TABLE notice_deliveries (
    id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    account_id      bigint      NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    channel         text        NOT NULL CHECK (channel IN ('email', 'push')),
    subscription_id bigint      REFERENCES push_subscriptions (id) ON DELETE CASCADE,
    -- A notice kind of V6, or `email_confirmation` (to the address being confirmed).
    kind            text        NOT NULL,
    -- The game it is about, if any (bounds `your_turn` per game).
    game_id         bigint,
    body            jsonb       NOT NULL,
    attempts        integer     NOT NULL DEFAULT 0,
    next_attempt_ms bigint      NOT NULL,
    last_error      text,
    delivered_at    timestamptz,
    -- Set when given up (retries exhausted) or left out (`skipped`: over the bound).
    failed_at       timestamptz,
    skipped         boolean     NOT NULL DEFAULT false,
    created_at      timestamptz NOT NULL DEFAULT now(),
    CHECK ((channel = 'push') = (subscription_id IS NOT NULL))
);
CREATE INDEX notice_deliveries_pending ON notice_deliveries (channel, account_id, next_attempt_ms)
    WHERE delivered_at IS NULL AND failed_at IS NULL;
-- The last `your_turn` sent per account, game and channel (the bound's look-up).
CREATE INDEX notice_deliveries_turns ON notice_deliveries (account_id, game_id, channel, delivered_at)
    WHERE kind = 'your_turn' AND delivered_at IS NOT NULL;
