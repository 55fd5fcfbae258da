//! The abuse limits' variables (`LIMIT_*`; docs/security.md, "Limits").

use super::env::rate;
use crate::limits::Limits;

pub(super) fn from_env() -> Result<Limits, String> {
    let d = Limits::default();
    Ok(Limits {
        commands: rate("LIMIT_COMMANDS", d.commands)?,
        logins: rate("LIMIT_LOGINS", d.logins)?,
        registrations: rate("LIMIT_REGISTRATIONS", d.registrations)?,
        name_attempts: rate("LIMIT_NAME_ATTEMPTS", d.name_attempts)?,
        expensive_reads: rate("LIMIT_EXPENSIVE_READS", d.expensive_reads)?,
        chat: rate("LIMIT_CHAT", d.chat)?,
        reports: rate("LIMIT_REPORTS", d.reports)?,
    })
}
