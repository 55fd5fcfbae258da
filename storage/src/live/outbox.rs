//! Notices for those who follow a game outside an append. The append's own notice and webhook
//! deliveries are part of its single statement (`append.rs`).

use deadpool_postgres::GenericClient;

use crate::error::Result;
use crate::live::channels::CHANNEL;

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
