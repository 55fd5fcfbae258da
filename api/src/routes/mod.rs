pub mod accounts;
pub mod games;
pub mod health;
pub mod kinds;
pub mod play;
pub mod trust;
pub mod vacation;
