//! The path parameters several operations share, declared once for the spec:
//! `params(GameId, …)`. They only describe; the handlers read the path with `web::Path`.

use utoipa::IntoParams;

/// Declares each parameter as a type of one field: `Name: "name" = type, "description";`.
macro_rules! path_params {
    ($($name:ident: $param:tt = $ty:ty, $description:tt;)*) => {$(
        #[derive(IntoParams)]
        #[into_params(names($param), parameter_in = Path)]
        // The field only names the parameter's type; the type is never built.
        #[allow(dead_code)]
        pub struct $name(#[doc = $description] $ty);
    )*};
}

path_params! {
    GameId: "id" = i64, "The game";
    FinishedGameId: "id" = i64, "The finished game";
    InvitationId: "id" = i64, "The invitation";
    KindName: "kind" = String, "A kind from `GET /v1/kinds`";
    AccountName: "name" = String, "The account";
    UnsubscribeToken: "token" = String, "The token from the mail's unsubscribe link";
}
