//! Accounts' credentials and JWTs (HS256). A request without a token is a spectator's; a
//! request with a bad, expired, forged or revoked token is refused, so a client never mistakes
//! a broken login for the public view.
//!
//! A token proves only who logged in, and when. What the account may do is read at request
//! time: the account must still exist, its token key must still be the one in the token
//! (`DELETE /v1/tokens` replaces it; a recreated database has other keys), and whether it is an
//! auditor or a moderator is the operator's current grant, and whether a moderator suspended it
//! (docs/moderation.md). That standing is cached per account for
//! [`STANDING_TTL`], so a request costs no extra query while a client is active.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use actix_web::{dev::Payload, web, FromRequest, HttpRequest};
use argon2::password_hash::{
    rand_core::OsRng, PasswordHash, PasswordHasher, PasswordVerifier, SaltString,
};
use argon2::Argon2;
use baumeister_storage::{AccountStanding, Reader, Store};
use jsonwebtoken::{decode, encode, Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};
use tokio::sync::Semaphore;

use crate::error::{ApiError, ApiResult};
use crate::AppState;

/// How long a request may rely on an account's standing read by an earlier one: a deleted
/// account, a revoked token, a changed auditor or moderator grant or a suspension takes effect within this time in every
/// server process (at once in the process that revoked).
pub const STANDING_TTL: Duration = Duration::from_secs(1);

/// What a token says.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Claims {
    /// The account id.
    pub sub: String,
    pub name: String,
    /// The account's token key when the token was issued.
    pub key: String,
    pub iat: u64,
    pub exp: u64,
}

pub struct Keys {
    encoding: EncodingKey,
    decoding: DecodingKey,
    validation: Validation,
    pub ttl_seconds: u64,
    /// Tokens whose signature was checked, with what they say: a client sends the same token
    /// with every request, and checking it (base64, JSON and HMAC) was a twentieth of the
    /// server's instructions per command. Only a token that verified is kept, under its exact
    /// text, so a hit is a token this key signed; its expiry is judged again at every use.
    verified: Mutex<HashMap<Box<str>, Claims>>,
}

/// More tokens than this in use only costs their checks, not memory.
const VERIFIED_KEPT: usize = 10_000;

impl Keys {
    pub fn new(secret: &[u8], ttl_seconds: u64) -> Self {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.leeway = 5;
        validation.set_required_spec_claims(&["exp", "sub"]);
        // Expiry is judged by `verify_at`, for kept tokens and new ones alike.
        validation.validate_exp = false;
        Keys {
            encoding: EncodingKey::from_secret(secret),
            decoding: DecodingKey::from_secret(secret),
            validation,
            ttl_seconds,
            verified: Mutex::default(),
        }
    }

    pub fn issue(&self, account_id: i64, name: &str, key: &str) -> String {
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0);
        let claims = Claims {
            sub: account_id.to_string(),
            name: name.to_string(),
            key: key.to_string(),
            iat: now,
            exp: now + self.ttl_seconds,
        };
        encode(&Header::new(Algorithm::HS256), &claims, &self.encoding)
            .expect("HS256 signing cannot fail")
    }

    pub fn verify(&self, token: &str) -> Result<Claims, ApiError> {
        self.verify_at(token, jsonwebtoken::get_current_timestamp())
    }

    /// [`Keys::verify`] at `now` (seconds since the epoch), judging expiry as `jsonwebtoken`
    /// does: expired once `exp` is more than the leeway in the past.
    fn verify_at(&self, token: &str, now: u64) -> Result<Claims, ApiError> {
        let live = |claims: &Claims| {
            if claims.exp >= now.saturating_sub(self.validation.leeway) {
                Ok(claims.clone())
            } else {
                Err(ApiError::unauthorized(
                    "token_expired",
                    "The token has expired; log in again.",
                ))
            }
        };
        let mut verified = self.verified.lock().unwrap();
        if let Some(claims) = verified.get(token) {
            let judged = live(claims);
            if judged.is_err() {
                verified.remove(token);
            }
            return judged;
        }
        drop(verified);
        let claims = decode::<Claims>(token, &self.decoding, &self.validation)
            .map_err(|_| ApiError::unauthorized("invalid_token", "The token is not valid."))?
            .claims;
        live(&claims)?;
        let mut verified = self.verified.lock().unwrap();
        if verified.len() >= VERIFIED_KEPT {
            verified.clear();
        }
        verified.insert(token.into(), claims.clone());
        Ok(claims)
    }
}

/// Accounts' standing as recently read, by account id (`None`: the account is gone).
#[derive(Default)]
pub struct Standings {
    read: Mutex<HashMap<i64, (Instant, Option<AccountStanding>)>>,
}

/// More accounts than this active within [`STANDING_TTL`] only costs queries, not memory.
const STANDINGS_KEPT: usize = 100_000;

impl Standings {
    async fn of(&self, store: &Store, id: i64) -> ApiResult<Option<AccountStanding>> {
        let now = Instant::now();
        if let Some((at, standing)) = self.read.lock().unwrap().get(&id) {
            if now.duration_since(*at) < STANDING_TTL {
                return Ok(standing.clone());
            }
        }
        let standing = store.account_standing(id).await?;
        let mut read = self.read.lock().unwrap();
        if read.len() >= STANDINGS_KEPT {
            read.retain(|_, (at, _)| now.duration_since(*at) < STANDING_TTL);
            if read.len() >= STANDINGS_KEPT {
                read.clear();
            }
        }
        read.insert(id, (now, standing.clone()));
        Ok(standing)
    }

    /// Forgets what was read of an account (after this process changed it).
    pub fn forget(&self, id: i64) {
        self.read.lock().unwrap().remove(&id);
    }
}

/// The caller: anonymous, or an account proven by its token.
#[derive(Clone, Debug)]
pub struct Caller(pub Option<Account>);

/// An authenticated account, as it stands now.
#[derive(Clone, Debug)]
pub struct Account {
    pub id: i64,
    pub name: String,
    pub auditor: bool,
    /// The operator made it a moderator (docs/moderation.md).
    pub moderator: bool,
    /// Its latest suspension (in force only until its time).
    pub suspension: Option<baumeister_storage::Suspension>,
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

/// The token of a request, if it has an `Authorization` header.
fn bearer(req: &HttpRequest) -> Result<Option<&str>, ApiError> {
    let Some(header) = req.headers().get("Authorization") else {
        return Ok(None);
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
    Ok(Some(token.trim()))
}

async fn caller(state: web::Data<AppState>, claims: Option<Claims>) -> ApiResult<Caller> {
    let Some(claims) = claims else {
        return Ok(Caller(None));
    };
    let id: i64 = claims
        .sub
        .parse()
        .map_err(|_| ApiError::unauthorized("invalid_token", "The token is not valid."))?;
    let standing = state.standings.of(&state.store, id).await?.ok_or_else(|| {
        ApiError::unauthorized(
            "account_unknown",
            "The account of this token no longer exists.",
        )
    })?;
    if standing.token_key != claims.key {
        return Err(ApiError::unauthorized(
            "token_revoked",
            "This token was revoked (or issued by an earlier database); log in again.",
        ));
    }
    Ok(Caller(Some(Account {
        id,
        name: standing.name,
        auditor: standing.auditor,
        moderator: standing.moderator,
        suspension: standing.suspension,
    })))
}

impl FromRequest for Caller {
    type Error = ApiError;
    type Future = std::pin::Pin<Box<dyn std::future::Future<Output = Result<Self, ApiError>>>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let state = req
            .app_data::<web::Data<AppState>>()
            .expect("AppState is registered")
            .clone();
        let claims = bearer(req).and_then(|t| t.map(|t| state.keys.verify(t)).transpose());
        Box::pin(async move { caller(state, claims?).await })
    }
}

/// The caller of a stream: the `Authorization` header, or else the `token` query parameter
/// (browsers' `EventSource` cannot set headers). Only streams read the parameter: a token in a
/// URL ends up in logs and histories, so nothing else accepts it. Returns the claims too, so a
/// long-lived stream can judge the token again (revoked, expired) while it runs.
pub async fn stream_caller(
    req: &HttpRequest,
    state: &web::Data<AppState>,
) -> ApiResult<(Caller, Option<Claims>)> {
    let from_query = || {
        web::Query::<std::collections::HashMap<String, String>>::from_query(req.query_string())
            .ok()
            .and_then(|q| q.get("token").cloned())
    };
    let token = match bearer(req)? {
        Some(t) => Some(t.to_string()),
        None => from_query(),
    };
    let claims = token.map(|t| state.keys.verify(&t)).transpose()?;
    let caller = caller(state.clone(), claims.clone()).await?;
    Ok((caller, claims))
}

/// Judges a stream's token again, as a new request would be (see [`stream_caller`]).
pub async fn still_valid(
    state: &web::Data<AppState>,
    claims: &Option<Claims>,
) -> ApiResult<Caller> {
    if let Some(c) = claims {
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        if c.exp <= now {
            return Err(ApiError::unauthorized(
                "token_expired",
                "The token has expired; log in again.",
            ));
        }
    }
    caller(state.clone(), claims.clone()).await
}

/// Password hashing, bounded: at most one argon2 hash per core at once (each takes a core for
/// tens of milliseconds and 19 MiB, on purpose); a request that cannot start one within
/// [`Hashing::WAIT`] is answered 503 `busy` with `Retry-After`.
pub struct Hashing {
    permits: Semaphore,
    wait: Duration,
}

impl Default for Hashing {
    fn default() -> Self {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Hashing::new(cores, Self::WAIT)
    }
}

impl Hashing {
    /// How long a login or registration waits for a core before it is told to come back.
    pub const WAIT: Duration = Duration::from_secs(2);

    fn new(at_once: usize, wait: Duration) -> Self {
        Hashing {
            permits: Semaphore::new(at_once),
            wait,
        }
    }

    async fn run<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> ApiResult<T> {
        let _permit = tokio::time::timeout(self.wait, self.permits.acquire())
            .await
            .map_err(|_| {
                ApiError::busy(
                    "Too many logins and registrations at once; try again in a second.",
                    1,
                )
            })?
            .expect("the semaphore is never closed");
        web::block(work).await.map_err(ApiError::internal)
    }

    /// Hashes a password with argon2id and a random salt.
    pub async fn hash(&self, password: String) -> ApiResult<String> {
        self.run(move || hash_password(&password)).await?
    }

    pub async fn verify(&self, password: String, hash: String) -> ApiResult<bool> {
        self.run(move || verify_password(&password, &hash)).await
    }
}

/// Hashes a password with argon2id and a random salt (slow on purpose: see [`Hashing`]).
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_verified_before_is_judged_again_on_its_expiry_and_a_forged_one_never_kept() {
        let keys = Keys::new(b"a secret of thirty-two bytes or more", 60);
        let token = keys.issue(7, "ada", "k1");
        let exp = keys.verify(&token).unwrap().exp;
        // Kept: the same claims again, until the leeway after `exp` has passed.
        let again = keys.verify_at(&token, exp + 5).unwrap();
        assert_eq!((again.sub.as_str(), again.key.as_str()), ("7", "k1"));
        let late = keys.verify_at(&token, exp + 6).unwrap_err();
        assert_eq!(late.code, "token_expired");
        // Forgotten once expired, and still expired when checked afresh.
        assert!(!keys.verified.lock().unwrap().contains_key(token.as_str()));
        assert_eq!(
            keys.verify_at(&token, exp + 6).unwrap_err().code,
            "token_expired"
        );
        // Another key's token, and this token with its signature changed, are refused and not
        // kept.
        let other = Keys::new(b"another secret of thirty-two bytes", 60).issue(7, "ada", "k1");
        let at = token.rfind('.').unwrap() + 5;
        let was = &token[at..at + 1];
        let forged = format!(
            "{}{}{}",
            &token[..at],
            if was == "A" { "B" } else { "A" },
            &token[at + 1..]
        );
        for bad in [other, forged] {
            assert_eq!(keys.verify(&bad).unwrap_err().code, "invalid_token");
            assert!(!keys.verified.lock().unwrap().contains_key(bad.as_str()));
        }
    }

    #[actix_web::test]
    async fn hashing_beyond_the_cores_waits_then_is_told_to_come_back() {
        let hashing = std::sync::Arc::new(Hashing::new(1, Duration::from_millis(100)));
        let slow = {
            let hashing = hashing.clone();
            actix_web::rt::spawn(async move {
                hashing
                    .run(|| std::thread::sleep(Duration::from_millis(500)))
                    .await
            })
        };
        actix_web::rt::time::sleep(Duration::from_millis(50)).await;
        let refused = hashing.run(|| ()).await.unwrap_err();
        assert_eq!(
            (refused.status.as_u16(), refused.code.as_str()),
            (503, "busy")
        );
        assert_eq!(refused.retry_after, Some(1));
        slow.await.unwrap().unwrap();
        assert!(hashing.run(|| ()).await.is_ok(), "free again");
        let hash = hashing.hash("a password".into()).await.unwrap();
        assert!(hashing.verify("a password".into(), hash).await.unwrap());
    }
}
