//! The operator's moderation commands (docs/moderation.md): `baumeister moderator
//! grant|revoke|list|log`, `suspend`, `unsuspend`, `suspensions` and `reports list|resolve`.
//! They share the store's code with the API's moderators, so both are recorded alike in the
//! moderation log, under the operator's name (`--by`, else `USER`).

use baumeister_storage::{ReportState, Store, MODERATION_REASON_MAX_CHARS};

use clap::Subcommand;

#[derive(Debug, Subcommand)]
pub enum ModeratorAction {
    /// Make an existing account a moderator (its requests may moderate within a second).
    Grant {
        name: String,
        /// Who grants it (recorded; default: the `USER` of the environment).
        #[arg(long)]
        by: Option<String>,
    },
    /// Take the moderator role away from an account.
    Revoke {
        name: String,
        /// Who revokes it (recorded; default: the `USER` of the environment).
        #[arg(long)]
        by: Option<String>,
    },
    /// List the moderators.
    List,
    /// The moderation log, newest first: who did what, to whom, when and why.
    Log {
        /// How many entries (default 50).
        #[arg(long, default_value_t = 50)]
        limit: i64,
    },
}

#[derive(Debug, Subcommand)]
pub enum ReportsAction {
    /// The queue: open reports first (oldest first), then resolved ones.
    List {
        /// Only reports in this state: `open`, `dismissed` or `actioned`.
        #[arg(long)]
        state: Option<String>,
        /// How many reports (default 50).
        #[arg(long, default_value_t = 50)]
        limit: i64,
    },
    /// Resolve an open report.
    Resolve {
        id: i64,
        /// `dismiss` (nothing to do) or `act` (acted on).
        #[arg(long)]
        outcome: String,
        /// Why, or what was done (recorded).
        #[arg(long)]
        reason: String,
        /// Who resolves it (recorded; default: the `USER` of the environment).
        #[arg(long)]
        by: Option<String>,
    },
}

/// Who the operator is, for the record: `--by`, else the environment's `USER`, else
/// `operator`.
pub fn operator(by: Option<String>) -> String {
    by.or_else(|| std::env::var("USER").ok())
        .map(|b| b.trim().to_string())
        .filter(|b| !b.is_empty())
        .unwrap_or_else(|| "operator".into())
}

/// A reason, trimmed, 1 to 500 characters.
fn reason(text: &str) -> Result<&str, String> {
    let text = text.trim();
    let chars = text.chars().count();
    if chars == 0 {
        return Err("say why: --reason \"…\"".into());
    }
    if chars > MODERATION_REASON_MAX_CHARS {
        return Err(format!(
            "a reason has at most {MODERATION_REASON_MAX_CHARS} characters; this one has {chars}"
        ));
    }
    Ok(text)
}

/// `--until`: an RFC 3339 time, or a time from `now_ms` such as `90m`, `12h` or `7d`.
pub fn until(text: &str, now_ms: i64) -> Result<i64, String> {
    let text = text.trim();
    if let Some(at) = baumeister_storage::parse_rfc3339(text) {
        return Ok(at);
    }
    let unit_ms: i64 = match text.chars().last() {
        Some('m') => 60_000,
        Some('h') => 3_600_000,
        Some('d') => 86_400_000,
        _ => 0,
    };
    // Units are ASCII, so a matched one is the last byte.
    let count = (unit_ms > 0)
        .then(|| text[..text.len() - 1].parse::<i64>().ok())
        .flatten();
    match count {
        Some(n) if unit_ms > 0 && (1..=36_500).contains(&n) => Ok(now_ms + n * unit_ms),
        _ => Err(format!(
            "--until is an RFC 3339 time (2026-12-24T18:00:00Z) or a time from now (90m, 12h, 7d), not `{text}`"
        )),
    }
}

pub async fn moderator(store: &Store, action: ModeratorAction) -> Result<(), String> {
    match action {
        ModeratorAction::Grant { name, .. } | ModeratorAction::Revoke { name, .. }
            if name.trim().is_empty() =>
        {
            Err("name an account".into())
        }
        ModeratorAction::Grant { name, by } => {
            let name = store
                .set_moderator(&name, true, &operator(by))
                .await
                .map_err(|e| e.to_string())?;
            println!("{name} is a moderator");
            Ok(())
        }
        ModeratorAction::Revoke { name, by } => {
            let name = store
                .set_moderator(&name, false, &operator(by))
                .await
                .map_err(|e| e.to_string())?;
            println!("{name} is no longer a moderator");
            Ok(())
        }
        ModeratorAction::List => {
            for name in store.moderators().await.map_err(|e| e.to_string())? {
                println!("{name}");
            }
            Ok(())
        }
        ModeratorAction::Log { limit } => {
            if !(1..=10_000).contains(&limit) {
                return Err("--limit is 1 to 10000".into());
            }
            let entries = store
                .moderation_log(None, limit)
                .await
                .map_err(|e| e.to_string())?;
            for e in entries {
                let mut line = format!(
                    "{} {} {}",
                    e.at,
                    e.moderator,
                    serde_json::to_value(e.action)
                        .ok()
                        .and_then(|v| v.as_str().map(str::to_string))
                        .unwrap_or_default()
                );
                if let Some(account) = &e.account {
                    line.push_str(&format!(" account={account}"));
                }
                if let Some(id) = e.message_id {
                    line.push_str(&format!(" message={id}"));
                }
                if let Some(id) = e.report_id {
                    line.push_str(&format!(" report={id}"));
                }
                if let Some(until) = &e.until {
                    line.push_str(&format!(" until={until}"));
                }
                println!("{line}: {}", e.reason);
            }
            Ok(())
        }
    }
}

/// `baumeister suspend NAME --until WHEN --reason WHY`.
pub async fn suspend(
    store: &Store,
    name: &str,
    when: &str,
    why: &str,
    by: Option<String>,
) -> Result<(), String> {
    let until = until(when, store.now_ms())?;
    let why = reason(why)?;
    let suspended = store
        .suspend(name, until, why, &operator(by))
        .await
        .map_err(|e| e.to_string())?;
    println!(
        "{} is suspended until {}: {}",
        suspended.account, suspended.suspension.until, suspended.suspension.reason
    );
    Ok(())
}

/// `baumeister unsuspend NAME --reason WHY`.
pub async fn unsuspend(
    store: &Store,
    name: &str,
    why: &str,
    by: Option<String>,
) -> Result<(), String> {
    let why = reason(why)?;
    let (_, name) = store
        .lift_suspension(name, why, &operator(by))
        .await
        .map_err(|e| e.to_string())?;
    println!("{name} is no longer suspended");
    Ok(())
}

/// `baumeister suspensions`.
pub async fn suspensions(store: &Store) -> Result<(), String> {
    for (name, s) in store.suspensions().await.map_err(|e| e.to_string())? {
        println!("{name} until {}: {}", s.until, s.reason);
    }
    Ok(())
}

/// `baumeister reports …`.
pub async fn reports(store: &Store, action: ReportsAction) -> Result<(), String> {
    match action {
        ReportsAction::List { state, limit } => {
            let only = match state.as_deref() {
                None => None,
                Some("open") => Some(ReportState::Open),
                Some("dismissed") => Some(ReportState::Dismissed),
                Some("actioned") => Some(ReportState::Actioned),
                Some(other) => {
                    return Err(format!(
                        "--state is open, dismissed or actioned, not `{other}`"
                    ))
                }
            };
            if !(1..=10_000).contains(&limit) {
                return Err("--limit is 1 to 10000".into());
            }
            let reports = store
                .reports(only, limit, 0)
                .await
                .map_err(|e| e.to_string())?;
            for r in reports {
                let about = match &r.message {
                    Some(m) => format!(
                        " message {} in game {}{}: {:?}",
                        m.id,
                        r.game_id.unwrap_or_default(),
                        if m.removed { " (removed)" } else { "" },
                        m.text
                    ),
                    None => String::new(),
                };
                println!(
                    "#{} {} {} {} reported {} ({}){about}: {:?}",
                    r.id,
                    r.state.as_str(),
                    r.at,
                    r.reporter,
                    r.reported,
                    r.category.as_str(),
                    r.text
                );
            }
            Ok(())
        }
        ReportsAction::Resolve {
            id,
            outcome,
            reason: why,
            by,
        } => {
            let outcome = match outcome.as_str() {
                "dismiss" => ReportState::Dismissed,
                "act" => ReportState::Actioned,
                other => return Err(format!("--outcome is dismiss or act, not `{other}`")),
            };
            let why = reason(&why)?;
            let report = store
                .resolve_report(id, outcome, why, &operator(by))
                .await
                .map_err(|e| e.to_string())?;
            println!("report {} is {}", report.id, report.state.as_str());
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::until;

    #[test]
    fn until_is_a_time_or_a_time_from_now() {
        let now = 1_000_000;
        assert_eq!(until("90m", now), Ok(now + 90 * 60_000));
        assert_eq!(until(" 12h ", now), Ok(now + 12 * 3_600_000));
        assert_eq!(until("7d", now), Ok(now + 7 * 86_400_000));
        assert_eq!(
            until("2026-12-24T18:00:00Z", now),
            Ok(baumeister_storage::parse_rfc3339("2026-12-24T18:00:00Z").unwrap())
        );
        for bad in ["", "d", "7", "7w", "7é", "-3d", "0h", "soon", "99999999d"] {
            assert!(until(bad, now).is_err(), "{bad:?}");
        }
    }
}
