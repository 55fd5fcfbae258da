//! Der Wettkampf der Burgbaumeister (moses. 2016, Dominique Ehrhard).
//! Rules as this server plays them: `shared/rules/burgbaumeister.md`.

mod model;
mod rules;

pub use model::*;
pub use rules::Burgbaumeister;
