//! What an append adds for those who follow the game, in the append's own transaction: the
//! live notice (`NOTIFY`, delivered to every server process on commit) and the webhook
//! deliveries it causes (the outbox, so a crash after the commit loses none). One statement.

use deadpool_postgres::GenericClient;

use crate::append::Appended;
use crate::error::Result;
use crate::live::hub::CHANNEL;
use crate::rfc3339;

const FOLLOWERS_OF_APPEND: &str = "WITH g AS (SELECT kind, to_act AS waited FROM games WHERE id = $1),
     fired AS (
         SELECT s.seat, s.account_id, k.kind
         FROM g, seats s,
              LATERAL (VALUES ('game_started', $3::bigint = 0),
                              ('game_finished', $5::boolean),
                              ('your_turn', NOT $5::boolean AND s.seat = ANY ($4::smallint[])
                                            AND NOT s.seat = ANY (g.waited))) AS k(kind, fires)
         WHERE s.game_id = $1 AND k.fires),
     queued AS (
         INSERT INTO webhook_deliveries (delivery_id, webhook_id, kind, body, next_attempt_ms)
         SELECT gen_random_uuid(), w.id, f.kind,
                jsonb_build_object('kind', f.kind, 'created_at', $7::text, 'seat', f.seat,
                    'game', jsonb_build_object('id', $1::bigint, 'kind', g.kind, 'version', $2::bigint,
                                               'to_act', to_jsonb($4::smallint[]), 'finished', $5::boolean)),
                $6::bigint
         FROM fired f JOIN webhooks w ON w.account_id = f.account_id AND f.kind = ANY (w.kinds), g
         RETURNING 1)
     SELECT pg_notify($8::text, $1::bigint || ':' || $2::bigint), (SELECT count(*) FROM queued)";

/// Notifies the game's subscribers and queues the webhook deliveries of this append:
/// `game_started` (the set-up), `game_finished`, and `your_turn` for each seat the game now
/// waits for and did not before. MUST run before the lobby row is updated: it reads the seats
/// the game waited for until now from that row.
pub(crate) async fn followers_of_append(
    tx: &impl GenericClient,
    game_id: i64,
    base_version: i64,
    appended: &Appended,
) -> Result<()> {
    let to_act: Vec<i16> = appended
        .status
        .to_act
        .iter()
        .map(|s| i16::from(*s))
        .collect();
    // Prepared once per connection (the pool caches it): one round trip per append, and the
    // plan is cached after a few executions.
    let statement = tx.prepare_cached(FOLLOWERS_OF_APPEND).await?;
    tx.query_one(
        &statement,
        &[
            &game_id,
            &appended.aggregate.version,
            &base_version,
            &to_act,
            &appended.status.finished,
            &appended.now_ms,
            &rfc3339(appended.now_ms),
            &CHANNEL,
        ],
    )
    .await?;
    Ok(())
}

/// The notice of a change that appends no event (a seat taken before the game starts).
pub(crate) async fn notify_changed(
    client: &impl GenericClient,
    game_id: i64,
    version: i64,
) -> Result<()> {
    client
        .query_one(
            &format!("SELECT pg_notify('{CHANNEL}', $1::bigint || ':' || $2::bigint)"),
            &[&game_id, &version],
        )
        .await?;
    Ok(())
}
