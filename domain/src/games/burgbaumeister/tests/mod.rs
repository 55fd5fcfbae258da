//! Burgbaumeister's tests beyond each rule file's own: the rulebook's worked checks, random
//! play and its bot; the fixtures are shared with the rule files' tests.

mod bot;
mod proptests;
pub(crate) mod test_support;
mod worked_checks;
