//! Where webhooks may be delivered. A webhook makes the server send requests to a URL a user
//! chose, so by default only public addresses are allowed (see [`addresses`]: the operator's
//! own network is not the users' to probe). A URL is checked when it is registered: its form,
//! a host that is an address in any form the system's resolver accepts (`2130706433`,
//! `0x7f.1`, `127.1`, `[::ffff:127.0.0.1]`), `localhost` and its subdomains, and what the host
//! resolves to then. Before each attempt the worker resolves the host once, checks every
//! address and connects to one of exactly those ([`resolve`]), so a name that answers
//! differently the second time (DNS rebinding) reaches nothing new; redirects are not
//! followed. `WEBHOOK_ALLOW_PRIVATE=true` lifts the address rule (a test setup, or receivers
//! inside the operator's network).

use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::time::Duration;

use actix_web::http::Uri;

use crate::live::addresses::{self, Special};
use crate::live::failure::Failure;
use crate::live::resolve::Resolver;

/// The longest URL accepted.
pub const MAX_URL: usize = 2000;

/// How long registration waits for the host's addresses (it registers the URL when the name
/// does not resolve yet: every attempt checks again).
const REGISTRATION_LOOKUP: Duration = Duration::from_secs(3);

/// Why a URL is refused.
pub type Refusal = String;

/// Checks a URL's form: `http` or `https`, a host, no user or password, at most [`MAX_URL`].
/// Returns the host (without brackets) and the port to connect to.
pub fn parse(url: &str) -> Result<(String, u16), Refusal> {
    if url.len() > MAX_URL {
        return Err(format!("a webhook URL has at most {MAX_URL} characters"));
    }
    let uri: Uri = url
        .parse()
        .map_err(|_| "the URL does not parse".to_string())?;
    let port = match uri.scheme_str() {
        Some("http") => 80,
        Some("https") => 443,
        _ => return Err("a webhook URL starts with http:// or https://".into()),
    };
    let authority = uri
        .authority()
        .ok_or_else(|| "the URL names no host".to_string())?;
    if authority.as_str().contains('@') {
        return Err("a webhook URL may not carry a user name or password".into());
    }
    let bracketed = authority.host();
    let host = bracketed.trim_start_matches('[').trim_end_matches(']');
    if host.is_empty() {
        return Err("the URL names no host".into());
    }
    if bracketed.starts_with('[') {
        host.parse::<std::net::Ipv6Addr>()
            .map_err(|_| "the host in brackets is not an IPv6 address".to_string())?;
    } else {
        // A name is letters, digits, `-`, `_` and dots: no percent-encoding or other bytes a
        // resolver might read differently from this check.
        if !host
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b == b'.')
        {
            return Err("the host is not a host name or an address".into());
        }
        // A host that ends in a number is an IPv4 address (as browsers read URLs) or nothing.
        if ends_in_a_number(host) && inet_aton(host).is_none() {
            return Err("the host ends in a number but is not an IPv4 address".into());
        }
    }
    Ok((host.to_string(), authority.port_u16().unwrap_or(port)))
}

/// The address a host names without DNS: an IPv6 literal, or IPv4 in any form `inet_aton`
/// accepts (what `getaddrinfo` tries before it asks DNS).
pub fn literal_address(host: &str) -> Option<IpAddr> {
    match host.parse::<std::net::Ipv6Addr>() {
        Ok(v6) => Some(IpAddr::V6(v6)),
        Err(_) => inet_aton(host).map(IpAddr::V4),
    }
}

/// `inet_aton`'s IPv4 forms: `a.b.c.d`, `a.b.c` (c: 16 bits), `a.b` (b: 24 bits), `a` (32
/// bits), each part decimal, octal (leading `0`) or hexadecimal (`0x`); one trailing dot allowed.
fn inet_aton(host: &str) -> Option<Ipv4Addr> {
    let host = host.strip_suffix('.').unwrap_or(host);
    let parts: Vec<u32> = host.split('.').map(number_part).collect::<Option<_>>()?;
    let (last, init) = parts.split_last()?;
    if parts.len() > 4 || init.iter().any(|&p| p > 255) {
        return None;
    }
    let last_bits = 8 * (5 - parts.len() as u32);
    if last_bits < 32 && *last >> last_bits != 0 {
        return None;
    }
    let high = init
        .iter()
        .enumerate()
        .fold(0u32, |acc, (i, &p)| acc | (p << (24 - 8 * i)));
    Some(Ipv4Addr::from(high | last))
}

/// One part of an `inet_aton` address, if it fits 32 bits.
fn number_part(part: &str) -> Option<u32> {
    let (digits, radix) =
        if let Some(hex) = part.strip_prefix("0x").or_else(|| part.strip_prefix("0X")) {
            // `0x` alone is 0 to browsers; refusing more is the safe side.
            (if hex.is_empty() { "0" } else { hex }, 16)
        } else if part.len() > 1 && part.starts_with('0') {
            (&part[1..], 8)
        } else {
            (part, 10)
        };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    u32::from_str_radix(digits, radix).ok()
}

/// Whether the host's last label is a number (decimal, or `0x` hexadecimal).
fn ends_in_a_number(host: &str) -> bool {
    let host = host.strip_suffix('.').unwrap_or(host);
    let last = host.rsplit('.').next().unwrap_or("");
    let hex = last.strip_prefix("0x").or_else(|| last.strip_prefix("0X"));
    match hex {
        Some(hex) => hex.chars().all(|c| c.is_ascii_hexdigit()),
        None => !last.is_empty() && last.chars().all(|c| c.is_ascii_digit()),
    }
}

/// Whether the host is `localhost` or a name under it (RFC 6761: always loopback), in any
/// case and with or without the trailing dot.
fn is_localhost(host: &str) -> bool {
    let host = host.trim_end_matches('.').to_ascii_lowercase();
    host == "localhost" || host.ends_with(".localhost")
}

/// Checks a URL at registration: its form, and unless private addresses are allowed, the
/// address rule for a host that is an address or `localhost`, and for what the host resolves
/// to now (a name that does not resolve yet is accepted: every attempt checks it).
pub async fn check_registration(
    url: &str,
    allow_private: bool,
    resolver: &Resolver,
) -> Result<(), Refusal> {
    let (host, port) = parse(url)?;
    if allow_private {
        return Ok(());
    }
    if is_localhost(&host) {
        return Err(not_public(&host, None));
    }
    if let Some(ip) = literal_address(&host) {
        return match addresses::special(ip) {
            Some(special) => Err(not_public(&host, Some(&special))),
            None => Ok(()),
        };
    }
    match tokio::time::timeout(REGISTRATION_LOOKUP, resolver.lookup(&host, port)).await {
        // Which address, and in which range, stays unsaid: that would let anyone read the
        // operator's internal DNS through this answer.
        Ok(Ok(found)) if found.iter().any(|a| !addresses::is_public(a.ip())) => Err(format!(
            "{host} resolves to an address that is not public; the operator allows only those (WEBHOOK_ALLOW_PRIVATE)"
        )),
        _ => Ok(()),
    }
}

/// The addresses an attempt may connect to: the URL's host resolved once, every address
/// checked (one that is not public refuses the attempt, unless private addresses are
/// allowed). The worker connects to these and nothing else.
pub async fn resolve(
    url: &str,
    allow_private: bool,
    resolver: &Resolver,
) -> Result<Vec<SocketAddr>, Failure> {
    // Registration refused any other URL, so this does not fail; a URL stored before a
    // stricter rule names a host no resolver would find.
    let (host, port) = parse(url).map_err(|_| Failure::Dns)?;
    let found = if let Some(ip) = literal_address(&host) {
        vec![SocketAddr::new(ip, port)]
    } else if !allow_private && is_localhost(&host) {
        return Err(Failure::NotPublicAddress);
    } else {
        resolver
            .lookup(&host, port)
            .await
            .map_err(|_| Failure::Dns)?
    };
    if found.is_empty() {
        return Err(Failure::Dns);
    }
    if !allow_private && found.iter().any(|a| !addresses::is_public(a.ip())) {
        return Err(Failure::NotPublicAddress);
    }
    Ok(found)
}

fn not_public(host: &str, special: Option<&Special>) -> Refusal {
    let what = special.map(|s| format!(", in {s}")).unwrap_or_default();
    format!(
        "{host} is not a public address{what}; the operator allows only those (WEBHOOK_ALLOW_PRIVATE)"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_http_urls_without_credentials_are_accepted() {
        assert_eq!(
            parse("https://example.com/hook"),
            Ok(("example.com".into(), 443))
        );
        assert_eq!(
            parse("http://example.com:8080/x"),
            Ok(("example.com".into(), 8080))
        );
        assert_eq!(
            parse("http://[2001:4860::1]/"),
            Ok(("2001:4860::1".into(), 80))
        );
        assert!(parse("ftp://example.com/").is_err());
        assert!(parse("file:///etc/passwd").is_err());
        assert!(parse("https://user:pw@example.com/").is_err());
        assert!(parse("example.com/hook").is_err());
        assert!(parse("http://%31%32%37.0.0.1/").is_err());
        assert!(parse("http://1.2.3.999/").is_err());
        assert!(parse("http://08.0.0.1/").is_err());
        assert!(parse(&format!("https://example.com/{}", "a".repeat(MAX_URL))).is_err());
    }

    #[test]
    fn hosts_are_read_as_inet_aton_reads_them() {
        for (host, ip) in [
            ("127.0.0.1", "127.0.0.1"),
            ("2130706433", "127.0.0.1"),
            ("0x7f000001", "127.0.0.1"),
            ("0X7F000001", "127.0.0.1"),
            ("0177.0.0.1", "127.0.0.1"),
            ("0177.0.0.01", "127.0.0.1"),
            ("127.1", "127.0.0.1"),
            ("127.0.1", "127.0.0.1"),
            ("0x7f.1", "127.0.0.1"),
            ("127.0.0.1.", "127.0.0.1"),
            ("0", "0.0.0.0"),
            ("0x", "0.0.0.0"),
            ("10.0x10203", "10.1.2.3"),
            ("169.254.43518", "169.254.169.254"),
            ("4294967295", "255.255.255.255"),
            ("::1", "::1"),
            ("::ffff:127.0.0.1", "::ffff:127.0.0.1"),
        ] {
            assert_eq!(literal_address(host), Some(ip.parse().unwrap()), "{host}");
        }
        for host in [
            "4294967296",
            "256.0.0.1",
            "1.2.3.256",
            "1.2.65536",
            "1.16777216",
            "1.2.3.4.5",
            "08",
            "0x1g",
            "1..2",
            "",
            "example.com",
            "127.0.0.1.example.com",
        ] {
            assert_eq!(literal_address(host), None, "{host}");
        }
    }

    #[derive(Debug)]
    struct Fixed(&'static str);

    impl crate::live::resolve::Resolve for Fixed {
        fn lookup(&self, _: &str, port: u16) -> crate::live::resolve::Lookup {
            let ip: IpAddr = self.0.parse().unwrap();
            Box::pin(async move { Ok(vec![SocketAddr::new(ip, port)]) })
        }
    }

    #[actix_web::test]
    async fn private_addresses_are_refused_at_registration_unless_allowed() {
        let public = Resolver::new(Fixed("93.184.215.14"));
        for url in [
            "http://127.0.0.1/",
            "http://2130706433/",
            "http://0x7f000001/",
            "http://0177.0.0.1/",
            "http://127.1/",
            "http://127.0.0.1./",
            "http://localhost:9000/",
            "http://localhost./",
            "http://LOCALHOST/",
            "http://foo.localhost./",
            "http://a.b.LocalHost/",
            "http://10.1.2.3/",
            "http://192.168.0.1/",
            "http://172.16.5.5/",
            "http://169.254.169.254/latest/meta-data",
            "http://169.254.43518/",
            "http://100.64.0.1/",
            "http://192.0.0.8/",
            "http://0.0.0.0/",
            "http://0/",
            "http://[::1]/",
            "http://[::]/",
            "http://[fd00::1]/",
            "http://[fe80::1]/",
            "http://[fec0::1]/",
            "http://[::ffff:127.0.0.1]/",
            "http://[::127.0.0.1]/",
            "http://[::ffff:0:127.0.0.1]/",
            "http://[64:ff9b::7f00:1]/",
            "http://[64:ff9b:1::a9fe:a9fe]/",
            "http://[2002:7f00:1::1]/",
            "http://[2001::1]/",
        ] {
            assert!(
                check_registration(url, false, &public).await.is_err(),
                "{url}"
            );
            assert!(
                check_registration(url, true, &public).await.is_ok(),
                "{url}"
            );
        }
        assert!(check_registration("https://93.184.215.14/", false, &public)
            .await
            .is_ok());
        assert!(
            check_registration("https://hooks.example.com/", false, &public)
                .await
                .is_ok()
        );
        // A name that resolves to a private address now is refused now.
        let private = Resolver::new(Fixed("10.0.0.7"));
        let refused = check_registration("https://hooks.example.com/", false, &private)
            .await
            .unwrap_err();
        assert!(
            !refused.contains("10.0"),
            "the address stays unsaid: {refused}"
        );
        assert!(
            check_registration("https://hooks.example.com/", true, &private)
                .await
                .is_ok()
        );
    }

    #[actix_web::test]
    async fn an_attempt_gets_the_checked_addresses_or_a_category() {
        let local = Resolver::new(Fixed("127.0.0.1"));
        assert_eq!(
            resolve("http://rebound.example/x", false, &local).await,
            Err(Failure::NotPublicAddress)
        );
        assert_eq!(
            resolve("http://rebound.example:81/x", true, &local).await,
            Ok(vec!["127.0.0.1:81".parse().unwrap()])
        );
        assert_eq!(
            resolve("http://2130706433:82/", true, &local).await,
            Ok(vec!["127.0.0.1:82".parse().unwrap()])
        );
        assert_eq!(
            resolve(
                "http://0x7f000001/",
                false,
                &Resolver::new(Fixed("93.184.215.14"))
            )
            .await,
            Err(Failure::NotPublicAddress),
            "numeric forms are not handed to the resolver"
        );
        let public = Resolver::new(Fixed("93.184.215.14"));
        assert_eq!(
            resolve("https://hooks.example.com/", false, &public).await,
            Ok(vec!["93.184.215.14:443".parse().unwrap()])
        );
    }
}
