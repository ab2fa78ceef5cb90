//! E-mail: one SMTP relay (`--smtp smtp://…` or `smtps://…`, credentials in the URL) through
//! `lettre`, the sender `--mail-from`, plain-text messages with a one-click unsubscribe
//! (`List-Unsubscribe` and `List-Unsubscribe-Post`, RFC 8058); and what an address must be to
//! be kept.

use lettre::message::header::{ContentType, HeaderName, HeaderValue};
use lettre::message::Mailbox;
use lettre::{Address, AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use std::time::Duration;

/// Longest address kept (RFC 5321's path limit).
pub const MAX_ADDRESS: usize = 254;
/// How long the SMTP server has for each step of a delivery.
pub const SMTP_TIMEOUT: Duration = Duration::from_secs(10);

/// Why mail cannot be set up or sent.
#[derive(Debug, thiserror::Error)]
pub enum MailError {
    /// `--smtp` is not an `smtp://` or `smtps://` URL lettre takes.
    #[error("--smtp: {0}")]
    Url(String),
    /// `--mail-from` is not an address.
    #[error("--mail-from {0:?} is not an e-mail address")]
    From(String),
    /// The message could not be built (an address that is not one).
    #[error("the message could not be built: {0}")]
    Build(String),
    /// The SMTP server refused it or could not be reached.
    #[error("SMTP: {0}")]
    Smtp(String),
}

/// Why an address is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AddressError {
    /// Longer than [`MAX_ADDRESS`].
    #[error("an e-mail address is at most {MAX_ADDRESS} characters")]
    TooLong,
    /// Not `local@domain`.
    #[error("{0:?} is not an e-mail address (name@example.org)")]
    Malformed(String),
}

/// `text` as an address the server will mail to.
pub fn check_address(text: &str) -> Result<Address, AddressError> {
    let text = text.trim();
    if text.chars().count() > MAX_ADDRESS {
        return Err(AddressError::TooLong);
    }
    let shown = || AddressError::Malformed(text.chars().take(60).collect());
    let address: Address = text.parse().map_err(|_| shown())?;
    // A dotless domain is a local host name, never a reader's mailbox.
    if !address.domain().contains('.') || text.chars().any(char::is_control) {
        return Err(shown());
    }
    Ok(address)
}

/// One message to send.
pub struct Letter<'a> {
    /// To whom.
    pub to: &'a str,
    /// Its subject.
    pub subject: &'a str,
    /// Its text.
    pub text: String,
    /// The one-click unsubscribe URL, for a notice (none for a confirmation).
    pub unsubscribe: Option<String>,
}

/// The SMTP relay and the sender.
pub struct Mail {
    /// lettre's pooled transport.
    transport: AsyncSmtpTransport<Tokio1Executor>,
    /// `--mail-from`.
    from: Mailbox,
}

impl Mail {
    /// A relay at `url` (`smtp://host:port`, `smtp://user:pass@host:587?tls=required`,
    /// `smtps://host:465`), sending as `from`.
    pub fn new(url: &str, from: &str) -> Result<Mail, MailError> {
        let transport = AsyncSmtpTransport::<Tokio1Executor>::from_url(url)
            .map_err(|e| MailError::Url(e.to_string()))?
            .timeout(Some(SMTP_TIMEOUT))
            .build();
        let from: Mailbox = from
            .parse()
            .map_err(|_| MailError::From(from.to_string()))?;
        Ok(Mail { transport, from })
    }

    /// The sender's address (the VAPID contact too).
    pub fn from(&self) -> String {
        self.from.email.to_string()
    }

    /// Sends `letter`.
    pub async fn send(&self, letter: Letter<'_>) -> Result<(), MailError> {
        let to: Mailbox = letter
            .to
            .parse()
            .map_err(|e: lettre::address::AddressError| MailError::Build(e.to_string()))?;
        let mut builder = Message::builder()
            .from(self.from.clone())
            .to(to)
            .subject(letter.subject)
            .header(ContentType::TEXT_PLAIN);
        if let Some(url) = &letter.unsubscribe {
            builder = builder
                .raw_header(HeaderValue::new(
                    HeaderName::new_from_ascii_str("List-Unsubscribe"),
                    format!("<{url}>"),
                ))
                .raw_header(HeaderValue::new(
                    HeaderName::new_from_ascii_str("List-Unsubscribe-Post"),
                    "List-Unsubscribe=One-Click".to_string(),
                ));
        }
        let message = builder
            .body(letter.text)
            .map_err(|e| MailError::Build(e.to_string()))?;
        self.transport
            .send(message)
            .await
            .map_err(|e| MailError::Smtp(e.to_string()))?;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_is_checked_before_it_is_kept() {
        assert!(check_address("alice@example.org").is_ok());
        assert!(check_address(" alice@example.org ").is_ok());
        for bad in [
            "alice",
            "alice@",
            "@example.org",
            "alice@localhost",
            "a b@example.org",
        ] {
            assert!(
                matches!(check_address(bad), Err(AddressError::Malformed(_))),
                "{bad}"
            );
        }
        let long = format!("{}@example.org", "a".repeat(250));
        assert_eq!(check_address(&long), Err(AddressError::TooLong));
    }
}
