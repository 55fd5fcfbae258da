//! Burgbaumeister's tests beyond each rule file's own: the rulebook's worked checks and random
//! play; the fixtures are shared with the rule files' tests.

mod proptests;
pub(super) mod test_support;
mod worked_checks;
