//! Accounts' credentials and JWTs (HS256). A request without a token is a spectator's; a
//! request with a bad, expired or forged token is refused, so a client never mistakes a broken
//! login for the public view.

use std::future::{ready, Ready};
use std::time::{SystemTime, UNIX_EPOCH};

use actix_web::{dev::Payload, web, FromRequest, HttpRequest};
use argon2::password_hash::{
    rand_core::OsRng, PasswordHash, PasswordHasher, PasswordVerifier, SaltString,
};
use argon2::Argon2;
use baumeister_storage::Reader;
use jsonwebtoken::{decode, encode, Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};

use crate::error::ApiError;
use crate::AppState;

/// What a token says.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Claims {
    /// The account id.
    pub sub: String,
    pub name: String,
    /// `player` or `auditor`.
    pub role: String,
    pub iat: u64,
    pub exp: u64,
}

pub struct Keys {
    encoding: EncodingKey,
    decoding: DecodingKey,
    validation: Validation,
    pub ttl_seconds: u64,
}

impl Keys {
    pub fn new(secret: &[u8], ttl_seconds: u64) -> Self {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.leeway = 5;
        validation.set_required_spec_claims(&["exp", "sub"]);
        Keys {
            encoding: EncodingKey::from_secret(secret),
            decoding: DecodingKey::from_secret(secret),
            validation,
            ttl_seconds,
        }
    }

    pub fn issue(&self, account_id: i64, name: &str, role: &str) -> String {
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0);
        let claims = Claims {
            sub: account_id.to_string(),
            name: name.to_string(),
            role: role.to_string(),
            iat: now,
            exp: now + self.ttl_seconds,
        };
        encode(&Header::new(Algorithm::HS256), &claims, &self.encoding)
            .expect("HS256 signing cannot fail")
    }

    pub fn verify(&self, token: &str) -> Result<Claims, ApiError> {
        decode::<Claims>(token, &self.decoding, &self.validation)
            .map(|data| data.claims)
            .map_err(|e| {
                use jsonwebtoken::errors::ErrorKind;
                match e.kind() {
                    ErrorKind::ExpiredSignature => ApiError::unauthorized(
                        "token_expired",
                        "The token has expired; log in again.",
                    ),
                    _ => ApiError::unauthorized("invalid_token", "The token is not valid."),
                }
            })
    }
}

/// The caller: anonymous, or an account proven by its token.
#[derive(Clone, Debug)]
pub struct Caller(pub Option<Account>);

/// An authenticated account.
#[derive(Clone, Debug)]
pub struct Account {
    pub id: i64,
    pub name: String,
    pub auditor: bool,
}

impl Caller {
    pub fn reader(&self) -> Reader {
        match &self.0 {
            None => Reader::Anonymous,
            Some(a) => Reader::Account {
                id: a.id,
                auditor: a.auditor,
            },
        }
    }

    pub fn account_id(&self) -> Option<i64> {
        self.0.as_ref().map(|a| a.id)
    }

    /// The account, or 401 when the request carries no token.
    pub fn require(self) -> Result<Account, ApiError> {
        self.0.ok_or_else(|| {
            ApiError::unauthorized(
                "token_missing",
                "This needs a logged-in player: send `Authorization: Bearer <token>` (POST /v1/tokens).",
            )
        })
    }
}

fn caller(req: &HttpRequest) -> Result<Caller, ApiError> {
    let Some(header) = req.headers().get("Authorization") else {
        return Ok(Caller(None));
    };
    let header = header.to_str().map_err(|_| {
        ApiError::unauthorized("invalid_token", "The Authorization header is not text.")
    })?;
    let token = header
        .strip_prefix("Bearer ")
        .or_else(|| header.strip_prefix("bearer "))
        .ok_or_else(|| {
            ApiError::unauthorized("invalid_token", "Use `Authorization: Bearer <token>`.")
        })?;
    let state = req
        .app_data::<web::Data<AppState>>()
        .expect("AppState is registered");
    let claims = state.keys.verify(token.trim())?;
    let id = claims
        .sub
        .parse()
        .map_err(|_| ApiError::unauthorized("invalid_token", "The token is not valid."))?;
    Ok(Caller(Some(Account {
        id,
        auditor: claims.role == "auditor",
        name: claims.name,
    })))
}

impl FromRequest for Caller {
    type Error = ApiError;
    type Future = Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(caller(req))
    }
}

/// Hashes a password with argon2id and a random salt (slow on purpose: run it off the event loop).
pub fn hash_password(password: &str) -> Result<String, ApiError> {
    let salt = SaltString::generate(&mut OsRng);
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(ApiError::internal)
}

pub fn verify_password(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash)
        .map(|parsed| {
            Argon2::default()
                .verify_password(password.as_bytes(), &parsed)
                .is_ok()
        })
        .unwrap_or(false)
}
