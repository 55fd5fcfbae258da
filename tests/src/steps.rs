//! The steps the story tests share, each named for what it does: joining a game, sending a
//! command, answering and revoking invitations, importing and auditing a game, waiting for
//! notices to be delivered, and the check that a request was refused with a given code.

use std::time::Duration;

use serde::Serialize;
use serde_json::{json, Value};
use tokio_postgres::types::FromSql;

use crate::{Reply, TestServer};

/// Asserts that `r` is a refusal with `status` and the problem code `code` (its body shown when
/// not).
#[track_caller]
pub fn assert_refused(r: &Reply, status: u16, code: &str) {
    assert_eq!((r.status, r.code()), (status, code), "{}", r.body);
}

/// The `id` of each game in `list` (a JSON array of games, as lists and profiles show them).
pub fn game_ids(list: &Value) -> Vec<i64> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_i64().unwrap())
        .collect()
}

/// The rows `sql` selects for game `id` (its `$1`) from `db`, as pairs of their first two
/// columns.
pub async fn game_pairs<A, B>(db: &tokio_postgres::Client, sql: &str, id: i64) -> Vec<(A, B)>
where
    A: for<'a> FromSql<'a>,
    B: for<'a> FromSql<'a>,
{
    db.query(sql, &[&id])
        .await
        .unwrap()
        .iter()
        .map(|r| (r.get(0), r.get(1)))
        .collect()
}

impl TestServer {
    /// The moves game `id` lists for `token` (`GET /v1/games/{id}/moves`); the reply.
    pub async fn moves(&self, id: i64, token: &str) -> Reply {
        self.get(&format!("/v1/games/{id}/moves"), Some(token))
            .await
    }

    /// Asks to join game `id` for `token` with an empty body; the reply, unchecked.
    pub async fn join(&self, id: i64, token: &str) -> Reply {
        self.post(&format!("/v1/games/{id}/join"), Some(token), &json!({}))
            .await
    }

    /// Joins game `id` for `token` and expects a seat (200); the reply.
    pub async fn joined(&self, id: i64, token: &str) -> Reply {
        let r = self.join(id, token).await;
        assert_eq!(r.status, 200, "{}", r.body);
        r
    }

    /// Sends `command` (a move as `/moves` lists it, or `{"command": …}`) to game `id` for
    /// `token`; the reply, unchecked.
    pub async fn command(&self, id: i64, token: &str, command: &Value) -> Reply {
        self.post(&format!("/v1/games/{id}/commands"), Some(token), command)
            .await
    }

    /// Sends `command` to game `id` for `token` and expects it accepted (200); the reply.
    pub async fn commanded(&self, id: i64, token: &str, command: &Value) -> Reply {
        let r = self.command(id, token, command).await;
        assert_eq!(r.status, 200, "{command} refused: {}", r.body);
        r
    }

    /// Registers a webhook of `token`'s account at `url` for the notices `kinds`, expecting 201;
    /// the reply (its id and secret).
    pub async fn add_webhook(&self, token: &str, url: &str, kinds: Value) -> Reply {
        let r = self
            .post(
                "/v1/me/webhooks",
                Some(token),
                &json!({"url": url, "kinds": kinds}),
            )
            .await;
        assert_eq!(r.status, 201, "{}", r.body);
        r
    }

    /// Answers invitation `invitation` for `token`: `answer` is "accept" or "decline", `body`
    /// what goes with it; the reply, unchecked.
    pub async fn answer_invitation(
        &self,
        invitation: i64,
        answer: &str,
        token: &str,
        body: &Value,
    ) -> Reply {
        self.post(
            &format!("/v1/me/invitations/{invitation}/{answer}"),
            Some(token),
            body,
        )
        .await
    }

    /// Revokes invitation `invitation` of game `id` for `token` (`DELETE`); the status.
    pub async fn revoke_invitation(&self, id: i64, invitation: i64, token: &str) -> u16 {
        self.request(
            "DELETE",
            &format!("/v1/games/{id}/invitations/{invitation}"),
            Some(token),
        )
        .send()
        .await
        .unwrap()
        .status()
        .as_u16()
    }

    /// Sends `exported` (a game's export) to `POST /v1/games/import` for `token`; the reply,
    /// unchecked.
    pub async fn import(&self, token: &str, exported: &impl Serialize) -> Reply {
        self.post(
            "/v1/games/import",
            Some(token),
            &serde_json::to_value(exported).unwrap(),
        )
        .await
    }

    /// Registers the auditor `name` and imports `exported` as them, expecting 201; the reply.
    pub async fn import_as_auditor(&self, name: &str, exported: &impl Serialize) -> Reply {
        let auditor = self.auditor(name).await;
        let r = self.import(&auditor, exported).await;
        assert_eq!(r.status, 201, "{}", r.body);
        r
    }

    /// Reads game `id`'s audit (as anybody) and expects its three checks to hold: the chain
    /// intact, every decision reproduced, the randomness committed; the audit.
    pub async fn audit_holds(&self, id: i64) -> Value {
        let audit = self.get(&format!("/v1/games/{id}/audit"), None).await;
        assert_eq!(audit.status, 200, "{}", audit.body);
        for check in [
            "chain_intact",
            "decisions_reproduced",
            "randomness_committed",
        ] {
            assert_eq!(audit.body[check], true, "{}", audit.body);
        }
        audit.body
    }

    /// Waits until no notice on `channel` ("email", "push") is still being delivered: each one
    /// delivered or given up.
    pub async fn notices_settled(&self, channel: &str) {
        let db = self.db().await;
        for _ in 0..400 {
            let row = db
                .query_one(
                    "SELECT count(*) FROM notice_deliveries
                     WHERE channel = $1 AND delivered_at IS NULL AND failed_at IS NULL",
                    &[&channel],
                )
                .await
                .unwrap();
            if row.get::<_, i64>(0) == 0 {
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("{channel} notices still pending");
    }

    /// How many "your turn" notices the outbox skipped (a later turn in the same window).
    pub async fn skipped_your_turn_notices(&self) -> i64 {
        self.db()
            .await
            .query_one(
                "SELECT count(*) FROM notice_deliveries WHERE kind = 'your_turn' AND skipped",
                &[],
            )
            .await
            .unwrap()
            .get(0)
    }
}
