//! Notices to people: mail and Web Push.

use std::time::Duration;

use super::env::{number, switch, text};

/// Notices to people (see docs/api.md, "Email and push"): mail and Web Push.
#[derive(Clone, Debug)]
pub struct Notices {
    /// `PUBLIC_URL`: where players reach the server (links in mail and pushes).
    pub public_url: String,
    /// `SMTP_URL`: the SMTP server (`smtp://host:port` plain, `smtp://host?tls=required`,
    /// `smtps://user:password@host`). Without it no mail is sent and no address is taken.
    pub smtp_url: Option<String>,
    /// `SMTP_FROM`: the sender (`Baumeister <games@example.org>`).
    pub mail_from: String,
    /// The VAPID key (`VAPID_PRIVATE_KEY` or `VAPID_KEY_FILE`) and subject (`VAPID_SUBJECT`).
    pub vapid: crate::notices::vapid::Vapid,
    /// `NOTICE_TURN_WINDOW_MINUTES`: at most one `your_turn` per game in this time, by mail and
    /// to each device subscribed to push.
    pub turn_window: Duration,
    /// `NOTICE_RETRY_BASE_SECONDS`: the pause after the first failed attempt (then doubled).
    pub retry_base: Duration,
    /// `NOTICE_MAX_ATTEMPTS`: attempts before a notice is given up.
    pub max_attempts: i32,
    /// `NOTICE_DELIVERY=off`: this process sends no notices (another process does).
    pub deliver: bool,
    /// `INVITATION_STRANGERS_PER_DAY`: distinct accounts never played with that one account
    /// may invite in 24 hours; `INVITATION_NOTICES_FROM_STRANGERS_PER_DAY`: invitations from
    /// such accounts that one account is told of by mail and push in 24 hours (the rest are
    /// only listed).
    pub invitations: baumeister_storage::InvitationBounds,
}

impl Default for Notices {
    fn default() -> Self {
        let key = crate::notices::vapid::fresh_key();
        Notices {
            public_url: "http://127.0.0.1:8080".into(),
            smtp_url: None,
            mail_from: "Baumeister <baumeister@localhost>".into(),
            vapid: crate::notices::vapid::Vapid::new(&key, "mailto:baumeister@localhost".into()),
            turn_window: Duration::from_secs(3600),
            retry_base: Duration::from_secs(30),
            max_attempts: 8,
            deliver: true,
            invitations: Default::default(),
        }
    }
}

impl Notices {
    pub(super) fn from_env(bind: &str) -> Result<Notices, String> {
        let d = Notices::default();
        let public_url = text("PUBLIC_URL")
            .unwrap_or_else(|| format!("http://{bind}"))
            .trim_end_matches('/')
            .to_string();
        if !(public_url.starts_with("http://") || public_url.starts_with("https://")) {
            return Err(format!(
                "PUBLIC_URL starts with http:// or https://, not `{public_url}`"
            ));
        }
        let mail_from = text("SMTP_FROM").unwrap_or(d.mail_from);
        let subject = text("VAPID_SUBJECT").unwrap_or_else(|| {
            let address = mail_from
                .rsplit('<')
                .next()
                .unwrap_or(&mail_from)
                .trim_end_matches('>')
                .trim();
            format!("mailto:{address}")
        });
        if !(subject.starts_with("mailto:") || subject.starts_with("https://")) {
            return Err(format!(
                "VAPID_SUBJECT is a mailto: or https: URI, not `{subject}`"
            ));
        }
        let source = match (text("VAPID_PRIVATE_KEY"), text("VAPID_KEY_FILE")) {
            (Some(key), _) => crate::notices::vapid::VapidKeySource::Key(key),
            (None, Some(path)) => crate::notices::vapid::VapidKeySource::File(path.into()),
            (None, None) => crate::notices::vapid::VapidKeySource::Random,
        };
        Ok(Notices {
            public_url,
            smtp_url: text("SMTP_URL"),
            mail_from,
            vapid: source.load(subject)?,
            turn_window: Duration::from_secs(
                60 * number("NOTICE_TURN_WINDOW_MINUTES", d.turn_window.as_secs() / 60)?,
            ),
            retry_base: Duration::from_secs(
                number("NOTICE_RETRY_BASE_SECONDS", d.retry_base.as_secs())?.max(1),
            ),
            max_attempts: number("NOTICE_MAX_ATTEMPTS", d.max_attempts as u64)?.clamp(1, 100)
                as i32,
            deliver: switch("NOTICE_DELIVERY", true)?,
            invitations: baumeister_storage::InvitationBounds {
                strangers_per_sender: number(
                    "INVITATION_STRANGERS_PER_DAY",
                    d.invitations.strangers_per_sender as u64,
                )?
                .min(1_000_000) as i64,
                notices_per_recipient: number(
                    "INVITATION_NOTICES_FROM_STRANGERS_PER_DAY",
                    d.invitations.notices_per_recipient as u64,
                )?
                .min(1_000_000) as i64,
            },
        })
    }
}
