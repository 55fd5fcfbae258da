//! People and tables, beside the game itself: accounts, the lobby and its seats, bots seated,
//! who may watch, invitations, chat, rematches, vacations, ratings, and moderation (reports,
//! suspensions, the moderators' log).

pub(crate) mod account_care;
pub(crate) mod accounts;
pub(crate) mod bots;
pub(crate) mod chat;
pub(crate) mod invitation_bounds;
pub(crate) mod invitations;
pub(crate) mod lobby;
pub(crate) mod moderation;
pub mod rating;
pub(crate) mod rematch;
pub(crate) mod reports;
pub(crate) mod vacations;
pub(crate) mod watch;
