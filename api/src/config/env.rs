//! Reading one variable, in the few forms every setting shares; each refuses, naming the
//! variable, what it cannot read.

use std::env;
use std::time::Duration;

use crate::limits::Rate;

/// Text, trimmed; unset or blank: `None`.
pub(super) fn text(name: &str) -> Option<String> {
    env::var(name)
        .ok()
        .map(|v| v.trim().to_string())
        .filter(|v| !v.is_empty())
}

/// A whole number; unset: `default`.
pub(super) fn number(name: &str, default: u64) -> Result<u64, String> {
    match env::var(name) {
        Ok(v) => v
            .parse()
            .map_err(|_| format!("{name} must be a whole number, not `{v}`")),
        Err(_) => Ok(default),
    }
}

/// A whole number of at least one; unset: `default`.
pub(super) fn at_least_one(name: &str, default: u64) -> Result<u64, String> {
    match number(name, default)? {
        0 => Err(format!("{name} must be 1 or more")),
        n => Ok(n),
    }
}

/// Whole seconds; unset: `default`.
pub(super) fn seconds(name: &str, default: Duration) -> Result<Duration, String> {
    Ok(Duration::from_secs(number(name, default.as_secs())?))
}

/// Whole seconds, at least one; unset: `default`.
pub(super) fn at_least_a_second(name: &str, default: Duration) -> Result<Duration, String> {
    Ok(Duration::from_secs(at_least_one(name, default.as_secs())?))
}

/// `on` or `off`; unset or blank: `default`.
pub(super) fn switch(name: &str, default: bool) -> Result<bool, String> {
    match env::var(name).as_deref() {
        Err(_) | Ok("") => Ok(default),
        Ok("on") => Ok(true),
        Ok("off") => Ok(false),
        Ok(v) => Err(format!("{name} is `on` or `off`, not `{v}`")),
    }
}

/// A rate, `N/S` (N requests per S seconds), or `off` (`None`); unset: `default`.
pub(super) fn rate(name: &str, default: Option<Rate>) -> Result<Option<Rate>, String> {
    match env::var(name) {
        Ok(v) => Rate::parse(&v).ok_or_else(|| {
            format!("{name} is `N/S` (N requests per S seconds) or `off`, not `{v}`")
        }),
        Err(_) => Ok(default),
    }
}
