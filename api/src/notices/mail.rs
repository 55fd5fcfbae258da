//! Mail: the messages (a plain text part and an HTML part; the one-click unsubscribe headers of
//! RFC 8058) and their sending by SMTP (`SMTP_URL`: `smtp://` plain, `smtp://…?tls=required`
//! for STARTTLS, `smtps://` for TLS, with rustls).

use lettre::message::header::{Header, HeaderName, HeaderValue};
use lettre::message::{Mailbox, MultiPart};
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

use baumeister_storage::{Language, MailBatch, NoticeItem};

use crate::notices::texts::{self, Written};

/// `List-Unsubscribe: <URL>` (RFC 2369).
#[derive(Clone)]
struct ListUnsubscribe(String);

impl Header for ListUnsubscribe {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("List-Unsubscribe")
    }
    fn parse(s: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(ListUnsubscribe(s.to_string()))
    }
    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), format!("<{}>", self.0))
    }
}

/// `List-Unsubscribe-Post: List-Unsubscribe=One-Click` (RFC 8058).
#[derive(Clone)]
struct ListUnsubscribePost;

impl Header for ListUnsubscribePost {
    fn name() -> HeaderName {
        HeaderName::new_from_ascii_str("List-Unsubscribe-Post")
    }
    fn parse(_: &str) -> Result<Self, Box<dyn std::error::Error + Send + Sync>> {
        Ok(ListUnsubscribePost)
    }
    fn display(&self) -> HeaderValue {
        HeaderValue::new(Self::name(), "List-Unsubscribe=One-Click".into())
    }
}

/// Why a mail could not be sent (what the outbox records: a category, not the server's text).
#[derive(Debug)]
pub enum MailError {
    /// The address or sender does not parse as a mailbox: no retry helps.
    Address,
    /// The SMTP server refused or could not be reached.
    Smtp(String),
}

impl MailError {
    pub fn permanent(&self) -> bool {
        matches!(self, MailError::Address)
    }
}

impl std::fmt::Display for MailError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            MailError::Address => f.write_str("address"),
            MailError::Smtp(_) => f.write_str("smtp"),
        }
    }
}

/// Sends mail by SMTP.
#[derive(Clone)]
pub struct Mailer {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
    public_url: String,
}

/// `text` with `&`, `<`, `>` and `"` escaped for HTML.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

impl Mailer {
    pub fn new(smtp_url: &str, from: &str, public_url: &str) -> Result<Mailer, String> {
        let from: Mailbox = from
            .parse()
            .map_err(|e| format!("SMTP_FROM `{from}` is not a mail address: {e}"))?;
        let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(smtp_url)
            .map_err(|e| format!("SMTP_URL does not parse: {e}"))?
            .timeout(Some(std::time::Duration::from_secs(30)))
            .build();
        Ok(Mailer {
            transport,
            from,
            public_url: public_url.trim_end_matches('/').to_string(),
        })
    }

    pub fn unsubscribe_url(&self, token: &str) -> String {
        format!("{}/v1/unsubscribe/{token}", self.public_url)
    }

    /// One mail for an account's due notices (those over the bound already left out): the
    /// notice itself, or a digest when there are several.
    pub fn notices(&self, batch: &MailBatch, items: &[&NoticeItem]) -> Result<Message, MailError> {
        let language = batch.language;
        let written: Vec<Written> = items
            .iter()
            .map(|i| texts::write(&i.kind, &i.body, language, &self.public_url))
            .collect();
        let subject = match written.as_slice() {
            [one] => one.title.clone(),
            many => texts::digest_subject(language, many.len()),
        };
        let frame = texts::frame(language);
        let unsubscribe = self.unsubscribe_url(&batch.unsubscribe_token);
        let settings = format!("{}/#/notices", self.public_url);
        let mut text = format!("{}\n\n", frame.greeting);
        let mut html = format!("<p>{}</p>\n", escape(frame.greeting));
        for w in &written {
            text.push_str(&format!("* {}\n  {}: {}\n\n", w.line, frame.open, w.url));
            html.push_str(&format!(
                "<p>{} <a href=\"{}\">{}</a></p>\n",
                escape(&w.line),
                escape(&w.url),
                escape(frame.open)
            ));
        }
        text.push_str(&format!(
            "-- \n{}\n{}: {settings}\n{}: {unsubscribe}\n",
            frame.why, frame.settings, frame.unsubscribe
        ));
        html.push_str(&format!(
            "<hr><p><small>{} <a href=\"{}\">{}</a> · <a href=\"{}\">{}</a></small></p>\n",
            escape(frame.why),
            escape(&settings),
            escape(frame.settings),
            escape(&unsubscribe),
            escape(frame.unsubscribe)
        ));
        Message::builder()
            .from(self.from.clone())
            .to(batch.address.parse().map_err(|_| MailError::Address)?)
            .subject(subject)
            .header(ListUnsubscribe(unsubscribe))
            .header(ListUnsubscribePost)
            .multipart(MultiPart::alternative_plain_html(text, html))
            .map_err(|_| MailError::Address)
    }

    /// The mail with an address's confirmation link.
    pub fn confirmation(
        &self,
        address: &str,
        token: &str,
        language: Language,
    ) -> Result<Message, MailError> {
        let (subject, ask, not_you) = texts::confirmation(language);
        let link = format!("{}/v1/email/confirm/{token}", self.public_url);
        self.with_link(address, subject, ask, &link, not_you)
    }

    /// The mail with a password reset's link, which opens the web client's reset page (the
    /// token in the fragment, which no server log sees).
    pub fn password_reset(
        &self,
        address: &str,
        name: &str,
        token: &str,
        minutes: u64,
        language: Language,
    ) -> Result<Message, MailError> {
        let (subject, ask, not_you) = texts::password_reset(language, name, minutes);
        let link = format!("{}/#/reset/{token}", self.public_url);
        self.with_link(address, subject, &ask, &link, not_you)
    }

    /// A mail of one link: what it asks the reader to do, the link, and what to do if the
    /// reader did not ask for it; as plain text and as HTML.
    fn with_link(
        &self,
        address: &str,
        subject: &str,
        ask: &str,
        link: &str,
        not_you: &str,
    ) -> Result<Message, MailError> {
        let text = format!("{ask}\n\n{link}\n\n{not_you}\n");
        let html = format!(
            "<p>{}</p>\n<p><a href=\"{}\">{}</a></p>\n<p>{}</p>\n",
            escape(ask),
            escape(link),
            escape(link),
            escape(not_you)
        );
        Message::builder()
            .from(self.from.clone())
            .to(address.parse().map_err(|_| MailError::Address)?)
            .subject(subject)
            .multipart(MultiPart::alternative_plain_html(text, html))
            .map_err(|_| MailError::Address)
    }

    pub async fn send(&self, message: Message) -> Result<(), MailError> {
        self.transport
            .send(message)
            .await
            .map(|_| ())
            .map_err(|e| MailError::Smtp(e.to_string()))
    }
}

/// Whether a string is a plausible address to send to: one `@`, something on both sides, no
/// spaces or control characters, at most 254 characters, and lettre parses it.
pub fn valid_address(address: &str) -> bool {
    address.len() <= 254
        && address.matches('@').count() == 1
        && !address.starts_with('@')
        && !address.ends_with('@')
        && !address.chars().any(|c| c.is_whitespace() || c.is_control())
        && address.parse::<lettre::Address>().is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_are_checked() {
        assert!(valid_address("ada@example.org"));
        for bad in [
            "",
            "ada",
            "@example.org",
            "ada@",
            "a b@example.org",
            "a@b@c",
            "ada@exa\nmple.org",
        ] {
            assert!(!valid_address(bad), "{bad:?}");
        }
        assert!(!valid_address(&format!("{}@example.org", "a".repeat(250))));
    }

    #[test]
    fn html_is_escaped() {
        assert_eq!(
            escape("<a href=\"x\">&</a>"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;"
        );
    }
}
