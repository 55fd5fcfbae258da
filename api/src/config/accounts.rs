//! Accounts people manage themselves (docs/accounts.md): password resets by mail and the names
//! of deleted accounts.

use std::time::Duration;

use super::env::{at_least_one, number};

#[derive(Clone, Copy, Debug)]
pub struct AccountCare {
    /// `PASSWORD_RESET_MINUTES`: how long the link of a "forgot my password" mail works.
    pub reset_valid: Duration,
    /// `PASSWORD_RESETS_PER_HOUR`: reset mails per account, and per address, in an hour; more
    /// requests are answered alike and send nothing.
    pub resets_per_hour: i64,
    /// `RETIRED_NAME_DAYS`: how long a deleted account's name (and any name a reader could
    /// confuse with it) cannot be registered.
    pub retired_name_days: i64,
}

impl Default for AccountCare {
    fn default() -> Self {
        AccountCare {
            reset_valid: Duration::from_secs(3600),
            resets_per_hour: 3,
            retired_name_days: 180,
        }
    }
}

impl AccountCare {
    pub(super) fn from_env() -> Result<AccountCare, String> {
        let d = AccountCare::default();
        Ok(AccountCare {
            reset_valid: Duration::from_secs(
                60 * at_least_one("PASSWORD_RESET_MINUTES", d.reset_valid.as_secs() / 60)?
                    .min(7 * 24 * 60),
            ),
            resets_per_hour: at_least_one("PASSWORD_RESETS_PER_HOUR", d.resets_per_hour as u64)?
                .min(1000) as i64,
            retired_name_days: number("RETIRED_NAME_DAYS", d.retired_name_days as u64)?.min(36_500)
                as i64,
        })
    }
}
