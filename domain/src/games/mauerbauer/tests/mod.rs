//! Mauerbauer's tests. Each rule file's tests are its own child module (`#[path]`), kept here
//! beside the worked checks from the rulebook, random play and the shared fixtures.

mod bot;
mod proptests;
pub(super) mod test_support;
mod worked_checks;
