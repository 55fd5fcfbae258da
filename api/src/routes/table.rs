//! The routes of the API, named once: each row registers its resource with actix and puts its
//! operations in the spec. The routes outside the spec (the web client, the docs, the spec
//! itself) are registered apart, in [`crate::routes`](fn@crate::routes).

use super::{
    account_care, accounts, bots, chat, games, health, history, invitations, kinds, live, me,
    moderation, notices, play, players, prometheus, rematch, trust, vacation,
};

/// `"/path" => METHOD module::handler, …;` for each resource, in the order actix tries them.
/// The methods are listed in the order a 405's `Allow` header names them. Emits `register`,
/// which adds the resources to an app, and `Operations`, the spec of their handlers (each
/// handler's `#[utoipa::path]`).
macro_rules! route_table {
    (@allow $first:ident $(, $rest:ident)*) => {
        concat!(stringify!($first) $(, ", ", stringify!($rest))*)
    };
    (@method GET) => { actix_web::web::get() };
    (@method PUT) => { actix_web::web::put() };
    (@method POST) => { actix_web::web::post() };
    (@method DELETE) => { actix_web::web::delete() };
    ($($path:literal => $($method:ident $module:ident::$handler:ident),+;)*) => {
        /// Adds every route of the table, in its order.
        pub(crate) fn register(cfg: &mut actix_web::web::ServiceConfig) {
            $(cfg.service(
                crate::resource($path, route_table!(@allow $($method),+))
                    $(.route(route_table!(@method $method).to($module::$handler)))+
            );)*
        }

        /// The operations of the table's routes, for [`crate::openapi`].
        #[derive(utoipa::OpenApi)]
        #[openapi(paths($($($module::$handler),+),*))]
        pub(crate) struct Operations;
    };
}

route_table! {
    // A command and its moves, most of the traffic, are matched first (no other route has
    // their shape, so the order changes no answer).
    "/v1/games/{id}/commands" => POST play::command;
    "/v1/games/{id}/moves" => GET play::moves;
    "/v1/accounts" => POST accounts::register;
    "/v1/tokens" => POST accounts::login, DELETE accounts::revoke;
    "/v1/me" => DELETE account_care::delete_account;
    "/v1/me/password" => PUT account_care::change_password;
    "/v1/me/data" => GET account_care::download;
    "/v1/password-resets" => POST account_care::request_reset;
    "/v1/password-resets/use" => POST account_care::use_reset;
    "/v1/me/vacation" => GET vacation::show, PUT vacation::set, DELETE vacation::end;
    "/v1/kinds" => GET kinds::kinds;
    "/v1/kinds/{kind}" => GET kinds::kind;
    "/v1/kinds/{kind}/rules" => GET kinds::kind_rules;
    "/v1/games" => GET games::lobby, POST games::create;
    // Before `/v1/games/{id}`, which would otherwise answer 405 for it.
    "/v1/games/import" => POST trust::import;
    "/v1/games/{id}" => GET games::show;
    "/v1/games/{id}/join" => POST games::join;
    "/v1/games/{id}/invitations" => GET invitations::list, POST invitations::create;
    "/v1/games/{id}/invitations/{invitation_id}" => DELETE invitations::revoke;
    "/v1/me/invitations" => GET invitations::mine;
    "/v1/me/invitations/{id}/accept" => POST invitations::accept;
    "/v1/me/invitations/{id}/decline" => POST invitations::decline;
    "/v1/games/{id}/rematch" => GET rematch::show_rematch, POST rematch::propose_rematch;
    "/v1/games/{id}/rematch/accept" => POST rematch::accept_rematch;
    "/v1/games/{id}/rematch/decline" => POST rematch::decline_rematch;
    "/v1/players/{name}" => GET players::player_profile;
    "/v1/kinds/{kind}/leaderboard" => GET players::leaderboard;
    "/v1/games/{id}/bots" => POST bots::add;
    "/v1/games/{id}/undo" => POST play::undo;
    "/v1/games/{id}/events" => GET history::events;
    "/v1/games/{id}/replay" => GET history::replay;
    "/v1/games/{id}/audit" => GET history::audit;
    "/v1/games/{id}/stream" => GET live::game_stream;
    "/v1/games/{id}/chat" => GET chat::read, POST chat::post;
    "/v1/me/mutes" => GET chat::mutes;
    "/v1/reports" => POST moderation::report;
    "/v1/me/standing" => GET moderation::standing;
    "/v1/moderation/reports" => GET moderation::reports;
    "/v1/moderation/reports/{report_id}/resolve" => POST moderation::resolve;
    "/v1/moderation/messages/{message_id}/remove" => POST moderation::remove_message;
    "/v1/moderation/accounts/{name}/suspend" => POST moderation::suspend;
    "/v1/moderation/accounts/{name}/lift" => POST moderation::lift;
    "/v1/moderation/suspensions" => GET moderation::suspensions;
    "/v1/moderation/log" => GET moderation::log;
    "/v1/me/mutes/{name}" => PUT chat::mute, DELETE chat::unmute;
    "/v1/me/games" => GET me::my_games;
    "/v1/me/stream" => GET live::my_stream;
    "/v1/me/webhooks" => GET me::list_webhooks, POST me::create_webhook;
    "/v1/me/webhooks/{id}" => DELETE me::delete_webhook;
    "/v1/me/notices" => GET notices::notice_settings, PUT notices::change_notice_settings;
    "/v1/me/email" => PUT notices::set_email, DELETE notices::remove_email;
    "/v1/me/push-subscriptions" => GET notices::push_subscriptions, POST notices::subscribe_push;
    "/v1/me/push-subscriptions/{id}" => DELETE notices::unsubscribe_device;
    "/v1/push/key" => GET notices::push_key;
    "/v1/email/confirm/{token}" => GET notices::confirm_email;
    "/v1/unsubscribe/{token}" => GET notices::unsubscribe_page, POST notices::unsubscribe;
    "/v1/keys" => GET trust::keys;
    "/v1/games/{id}/export" => GET trust::export;
    "/healthz" => GET health::healthz;
    "/readyz" => GET health::readyz;
    "/metrics" => GET prometheus::metrics;
}
