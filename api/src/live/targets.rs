//! Where webhooks may be delivered. A webhook makes the server send requests to a URL a user
//! chose, so by default only public addresses are allowed (no loopback, private, link-local,
//! shared or multicast ones: the operator's own network is not the users' to probe). The URL
//! is checked when it is registered and its host resolved and checked again before each
//! attempt; redirects are not followed. `WEBHOOK_ALLOW_PRIVATE=true` lifts the address rule
//! (a test setup, or receivers inside the operator's network).

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use actix_web::http::Uri;

/// The longest URL accepted.
pub const MAX_URL: usize = 2000;

/// Why a URL is refused.
pub type Refusal = String;

/// Checks a URL's form: `http` or `https`, a host, no user or password, at most [`MAX_URL`].
/// Returns the host and port to connect to.
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
    let host = authority
        .host()
        .trim_start_matches('[')
        .trim_end_matches(']');
    if host.is_empty() {
        return Err("the URL names no host".into());
    }
    Ok((host.to_string(), authority.port_u16().unwrap_or(port)))
}

/// Checks a URL at registration: its form, and, where the host is an address (or
/// `localhost`), the address rule.
pub fn check_registration(url: &str, allow_private: bool) -> Result<(), Refusal> {
    let (host, _) = parse(url)?;
    if allow_private {
        return Ok(());
    }
    if host.eq_ignore_ascii_case("localhost") || host.to_ascii_lowercase().ends_with(".localhost") {
        return Err(not_public(&host));
    }
    match host.parse::<IpAddr>() {
        Ok(ip) if !is_public(ip) => Err(not_public(&host)),
        _ => Ok(()),
    }
}

/// Resolves the URL's host and checks every address it resolves to (before each attempt).
pub async fn check_delivery(url: &str, allow_private: bool) -> Result<(), Refusal> {
    let (host, port) = parse(url)?;
    if allow_private {
        return Ok(());
    }
    let addresses: Vec<_> = tokio::net::lookup_host((host.as_str(), port))
        .await
        .map_err(|e| format!("cannot resolve {host}: {e}"))?
        .collect();
    if addresses.is_empty() {
        return Err(format!("{host} resolves to no address"));
    }
    match addresses.iter().find(|a| !is_public(a.ip())) {
        Some(a) => Err(not_public(&a.ip().to_string())),
        None => Ok(()),
    }
}

fn not_public(host: &str) -> Refusal {
    format!(
        "{host} is not a public address; the operator allows only those (WEBHOOK_ALLOW_PRIVATE)"
    )
}

/// Whether an address is on the public internet.
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => is_public_v4(v4),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => is_public_v4(v4),
            None => is_public_v6(v6),
        },
    }
}

fn is_public_v4(ip: Ipv4Addr) -> bool {
    let [a, b, ..] = ip.octets();
    !(ip.is_unspecified()
        || ip.is_loopback()
        || ip.is_private()
        || ip.is_link_local()
        || ip.is_broadcast()
        || ip.is_multicast()
        || ip.is_documentation()
        || a == 0
        // Shared address space (carrier-grade NAT), 100.64.0.0/10.
        || (a == 100 && (64..128).contains(&b))
        // Benchmarking, 198.18.0.0/15; reserved, 240.0.0.0/4.
        || (a == 198 && (b == 18 || b == 19))
        || a >= 240)
}

fn is_public_v6(ip: Ipv6Addr) -> bool {
    let first = ip.segments()[0];
    !(ip.is_unspecified()
        || ip.is_loopback()
        || ip.is_multicast()
        // Unique local, fc00::/7; link-local, fe80::/10; documentation, 2001:db8::/32.
        || (first & 0xfe00) == 0xfc00
        || (first & 0xffc0) == 0xfe80
        || (first == 0x2001 && ip.segments()[1] == 0x0db8))
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
        assert!(parse("ftp://example.com/").is_err());
        assert!(parse("file:///etc/passwd").is_err());
        assert!(parse("https://user:pw@example.com/").is_err());
        assert!(parse("example.com/hook").is_err());
        assert!(parse(&format!("https://example.com/{}", "a".repeat(MAX_URL))).is_err());
    }

    #[test]
    fn private_addresses_are_refused_unless_allowed() {
        for url in [
            "http://127.0.0.1/",
            "http://localhost:9000/",
            "http://10.1.2.3/",
            "http://192.168.0.1/",
            "http://172.16.5.5/",
            "http://169.254.169.254/latest/meta-data",
            "http://100.64.0.1/",
            "http://0.0.0.0/",
            "http://[::1]/",
            "http://[fd00::1]/",
            "http://[fe80::1]/",
            "http://[::ffff:127.0.0.1]/",
        ] {
            assert!(check_registration(url, false).is_err(), "{url}");
            assert!(check_registration(url, true).is_ok(), "{url}");
        }
        assert!(check_registration("https://93.184.215.14/", false).is_ok());
        assert!(check_registration("https://hooks.example.com/", false).is_ok());
    }
}
