//! The end-to-end suite, one test binary: each module is one area of the server, played over
//! HTTP against a real PostgreSQL (each test with a server and a database of its own; see
//! `tests/src/lib.rs`). One binary links once: forty-odd binaries spent most of the suite's
//! build in linking.

mod accounts;
mod batched_appends;
mod bots;
mod bots_shown;
mod burgbaumeister;
mod carcassonne;
mod chain_commitments;
mod chat;
mod clock_bot;
mod email_notices;
mod fair_bots;
mod fairness;
mod faults;
mod inflation_bombs;
mod invitation_bounds;
mod live_stream;
mod log_integrity;
mod mauerbauer;
mod moves_min_version;
mod multi_process;
mod my_games;
mod name_skeletons;
mod one_request_per_move;
mod private_games;
mod private_gate;
mod races;
mod ratings;
mod rematch;
mod rules_languages;
mod security_limits;
mod security_snapshots;
mod security_tokens;
mod service;
mod slow_clients;
mod snapshots;
mod space_builder;
mod spec_conformance;
mod turn_clock;
mod undo;
mod vacations;
mod web_client;
mod web_push;
mod webhooks;
mod wettstreit;
