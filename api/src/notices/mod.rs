//! Notices to people: "your turn" and the rest by email (SMTP) and by Web Push,
//! from the outbox the commands write (`baumeister_storage::notices`).

pub mod encrypt;
pub mod mail;
pub mod push;
pub mod texts;
pub mod vapid;
pub mod worker;
