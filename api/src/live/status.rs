//! The `status` message of a game stream, as the streams' shared frames write it and the spec
//! describes it.

/// The `status` message of a game stream: where the game is, and a seated subscriber's moves.
#[derive(Debug, serde::Serialize, utoipa::ToSchema)]
pub struct StreamStatus {
    /// The game's version: every event up to it has been sent (those the reader may see).
    pub version: i64,
    /// The seats whose command the game waits for.
    pub to_act: Vec<u8>,
    pub finished: bool,
    /// For a seated subscriber, its legal commands at `version`, each ready to POST as it is
    /// (what `GET …/moves` would answer at that version, empty when it has nothing to do);
    /// absent for spectators. A client that follows the stream and sends its commands with
    /// `Prefer: return=representation` needs one request per move of its own.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Vec<crate::routes::play::CommandBody>>)]
    pub moves: Option<Vec<crate::routes::play::ListedMove>>,
}
