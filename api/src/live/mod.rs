//! Following games: Server-Sent Events and webhook deliveries.

pub mod addresses;
pub mod failure;
pub mod open;
pub mod resolve;
pub mod shared;
pub mod sign;
pub mod sse;
pub mod status;
pub mod targets;
pub mod worker;
