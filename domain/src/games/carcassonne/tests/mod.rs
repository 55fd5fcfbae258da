//! Rule tests on hand-built boards (laid out by `test_support::Table`), one file per rule area.

mod bot;
mod end;
mod far_places;
mod farms;
mod followers;
mod gold;
mod mage_witch;
mod proptests;
mod scoring;
pub(super) mod test_support;
mod turn;
mod view;
