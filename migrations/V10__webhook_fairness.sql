-- Webhook deliveries are taken fairly between accounts (api/src/live/worker.rs): the worker
-- reads each webhook's oldest pending deliveries rather than the outbox's oldest, so that an
-- account with a backlog of thousands costs its own webhooks' few rows per read, not a scan of
-- its backlog. This index finds the webhooks with pending deliveries (a skip scan) and each
-- one's oldest.
CREATE INDEX webhook_deliveries_pending_by_webhook ON webhook_deliveries (webhook_id, next_attempt_ms)
    WHERE delivered_at IS NULL AND failed_at IS NULL;
