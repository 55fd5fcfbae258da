-- Following games: webhooks and their outbox. Live streams need no table: every append sends
-- `NOTIFY baumeister_live, '<game id>:<version>'` in its transaction, delivered on commit.

-- An account's webhook endpoints. The secret signs every delivery (HMAC-SHA256); it is shown
-- once, when the webhook is created, and kept here because each delivery needs it.
CREATE TABLE webhooks (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    account_id bigint      NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    url        text        NOT NULL,
    kinds      text[]      NOT NULL CHECK (kinds <@ ARRAY['your_turn', 'game_started', 'game_finished', 'deadline_soon']
                                           AND cardinality(kinds) > 0),
    secret     text        NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhooks_by_account ON webhooks (account_id);

-- The outbox: written in the same transaction as the events that cause a delivery, so a crash
-- after the commit loses none; a worker in any server process sends them (at least once).
CREATE TABLE webhook_deliveries (
    id              bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    -- Sent as `Baumeister-Delivery`: the same on every attempt, for the receiver's dedup.
    delivery_id     uuid        NOT NULL UNIQUE,
    webhook_id      bigint      NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
    kind            text        NOT NULL,
    body            jsonb       NOT NULL,
    attempts        integer     NOT NULL DEFAULT 0,
    -- When the next attempt is due (ms since the epoch); a worker that takes a delivery moves
    -- it past its own attempt, so a worker that dies mid-send leaves it to another.
    next_attempt_ms bigint      NOT NULL,
    last_error      text,
    delivered_at    timestamptz,
    -- Set when the retries are exhausted.
    failed_at       timestamptz,
    created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_ms)
    WHERE delivered_at IS NULL AND failed_at IS NULL;
CREATE INDEX webhook_deliveries_by_webhook ON webhook_deliveries (webhook_id, id DESC);

-- Which turn-clock deadlines have had their `deadline_soon` notices queued (once per deadline).
CREATE TABLE deadline_warnings (
    game_id     bigint NOT NULL REFERENCES games (id),
    deadline_ms bigint NOT NULL,
    PRIMARY KEY (game_id, deadline_ms)
);
