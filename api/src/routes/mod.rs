pub mod accounts;
pub mod games;
pub mod health;
pub mod kinds;
pub mod live;
pub mod me;
pub mod play;
pub mod vacation;
