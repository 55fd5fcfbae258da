//! Which addresses are public: everything but the ranges of the IANA IPv4 and IPv6
//! special-purpose address registries (RFC 6890 and its updates), IPv6 outside global unicast
//! (2000::/3), and the IPv6 forms that carry an IPv4 address. A webhook may only be delivered to
//! a public address unless the operator says otherwise (`WEBHOOK_ALLOW_PRIVATE`).
//!
//! Some entries of the registries are marked globally reachable (a few /32s inside
//! 192.0.0.0/24 and 2001::/23): no webhook receiver lives there, so the whole blocks are refused.

use std::fmt;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// Where in an IPv6 address an IPv4 address is carried.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Embeds {
    None,
    /// The low 32 bits (IPv4-compatible, -mapped, -translated, NAT64).
    Low32,
    /// Bits 16..48 (6to4, RFC 3056).
    SixToFour,
    /// The low 32 bits inverted: Teredo's client address (RFC 4380).
    Teredo,
}

/// A special-purpose range an address falls in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Special {
    /// The range, e.g. `127.0.0.0/8`.
    pub range: String,
    /// What it is for, e.g. `loopback`.
    pub name: &'static str,
    /// The IPv4 address an IPv6 address of this range carries, and the range that one is in.
    pub embedded: Option<(Ipv4Addr, Option<Box<Special>>)>,
}

impl fmt::Display for Special {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.range, self.name)?;
        if let Some((v4, special)) = &self.embedded {
            write!(f, ", carrying {v4}")?;
            if let Some(special) = special {
                write!(f, " ({})", special.name)?;
            }
        }
        Ok(())
    }
}

/// The IANA IPv4 special-purpose registry's blocks, plus multicast; more specific first.
const V4: &[([u8; 4], u8, &str)] = &[
    ([0, 0, 0, 0], 8, "this network"),
    ([10, 0, 0, 0], 8, "private"),
    ([100, 64, 0, 0], 10, "shared address space"),
    ([127, 0, 0, 0], 8, "loopback"),
    ([169, 254, 0, 0], 16, "link-local"),
    ([172, 16, 0, 0], 12, "private"),
    ([192, 0, 0, 0], 24, "IETF protocol assignments"),
    ([192, 0, 2, 0], 24, "documentation"),
    ([192, 31, 196, 0], 24, "AS112"),
    ([192, 52, 193, 0], 24, "AMT"),
    ([192, 88, 99, 0], 24, "6to4 relay anycast"),
    ([192, 168, 0, 0], 16, "private"),
    ([192, 175, 48, 0], 24, "AS112 direct delegation"),
    ([198, 18, 0, 0], 15, "benchmarking"),
    ([198, 51, 100, 0], 24, "documentation"),
    ([203, 0, 113, 0], 24, "documentation"),
    ([224, 0, 0, 0], 4, "multicast"),
    ([255, 255, 255, 255], 32, "limited broadcast"),
    ([240, 0, 0, 0], 4, "reserved"),
];

/// The IANA IPv6 special-purpose registry's blocks, plus site-local and multicast; more
/// specific first (Teredo before 2001::/23, ::/128 and ::1 before ::/96).
// One block a line, as the registry lists them.
#[rustfmt::skip]
const V6: &[([u16; 8], u8, &str, Embeds)] = &[
    ([0, 0, 0, 0, 0, 0, 0, 0], 128, "unspecified", Embeds::None),
    ([0, 0, 0, 0, 0, 0, 0, 1], 128, "loopback", Embeds::None),
    ([0, 0, 0, 0, 0, 0, 0, 0], 96, "IPv4-compatible", Embeds::Low32),
    ([0, 0, 0, 0, 0, 0xffff, 0, 0], 96, "IPv4-mapped", Embeds::Low32),
    ([0, 0, 0, 0, 0xffff, 0, 0, 0], 96, "IPv4-translated", Embeds::Low32),
    ([0x64, 0xff9b, 0, 0, 0, 0, 0, 0], 96, "NAT64", Embeds::Low32),
    ([0x64, 0xff9b, 1, 0, 0, 0, 0, 0], 48, "local-use NAT64", Embeds::Low32),
    ([0x100, 0, 0, 0, 0, 0, 0, 0], 64, "discard-only", Embeds::None),
    ([0x2001, 0, 0, 0, 0, 0, 0, 0], 32, "Teredo", Embeds::Teredo),
    ([0x2001, 0, 0, 0, 0, 0, 0, 0], 23, "IETF protocol assignments", Embeds::None),
    ([0x2001, 0xdb8, 0, 0, 0, 0, 0, 0], 32, "documentation", Embeds::None),
    ([0x2002, 0, 0, 0, 0, 0, 0, 0], 16, "6to4", Embeds::SixToFour),
    ([0x3fff, 0, 0, 0, 0, 0, 0, 0], 20, "documentation", Embeds::None),
    ([0x5f00, 0, 0, 0, 0, 0, 0, 0], 16, "segment routing", Embeds::None),
    ([0xfc00, 0, 0, 0, 0, 0, 0, 0], 7, "unique local", Embeds::None),
    ([0xfe80, 0, 0, 0, 0, 0, 0, 0], 10, "link-local", Embeds::None),
    ([0xfec0, 0, 0, 0, 0, 0, 0, 0], 10, "site-local", Embeds::None),
    ([0xff00, 0, 0, 0, 0, 0, 0, 0], 8, "multicast", Embeds::None),
];

/// Whether an address is on the public internet.
pub fn is_public(ip: IpAddr) -> bool {
    special(ip).is_none()
}

/// The special-purpose range `ip` falls in, if any.
pub fn special(ip: IpAddr) -> Option<Special> {
    match ip {
        IpAddr::V4(v4) => special_v4(v4),
        IpAddr::V6(v6) => special_v6(v6),
    }
}

fn special_v4(ip: Ipv4Addr) -> Option<Special> {
    let bits = u32::from(ip);
    V4.iter()
        .find(|(net, len, _)| within(bits as u128, u32::from_be_bytes(*net) as u128, *len, 32))
        .map(|(net, len, name)| Special {
            range: format!("{}/{len}", Ipv4Addr::from(*net)),
            name,
            embedded: None,
        })
}

fn special_v6(ip: Ipv6Addr) -> Option<Special> {
    let bits = u128::from(ip);
    let found = V6
        .iter()
        .find(|(net, len, _, _)| within(bits, u128::from(Ipv6Addr::from(*net)), *len, 128));
    if let Some((net, len, name, embeds)) = found {
        let v4 = match embeds {
            Embeds::None => None,
            Embeds::Low32 => Some(Ipv4Addr::from(bits as u32)),
            Embeds::SixToFour => Some(Ipv4Addr::from((bits >> 80) as u32)),
            Embeds::Teredo => Some(Ipv4Addr::from(!(bits as u32))),
        };
        // The carried address is judged too: the refusal names what it would reach.
        let embedded = v4.map(|v4| (v4, special_v4(v4).map(Box::new)));
        return Some(Special {
            range: format!("{}/{len}", Ipv6Addr::from(*net)),
            name,
            embedded,
        });
    }
    // Only 2000::/3 is allocated as global unicast; the rest is reserved.
    (ip.segments()[0] & 0xe000 != 0x2000).then(|| Special {
        range: "outside 2000::/3".into(),
        name: "not global unicast",
        embedded: None,
    })
}

/// Whether the `width`-bit `bits` lie in `net`/`len`.
fn within(bits: u128, net: u128, len: u8, width: u32) -> bool {
    let host = width - len as u32;
    host >= width || (bits >> host) == (net >> host)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each range: its first and last address (inside), and the addresses just before and
    /// just after it (outside it: public, or in the range named).
    #[test]
    fn every_special_range_is_refused_up_to_its_edges() {
        // range, first and last address, the address just before and the range it is in (`-`:
        // none, public), the address just after and its range; `.`: no such address.
        let table = "
            0.0.0.0/8          0.0.0.0          0.255.255.255                           .                                       -                1.0.0.0         -
            10.0.0.0/8         10.0.0.0         10.255.255.255                          9.255.255.255                           -                11.0.0.0        -
            100.64.0.0/10      100.64.0.0       100.127.255.255                         100.63.255.255                          -                100.128.0.0     -
            127.0.0.0/8        127.0.0.0        127.255.255.255                         126.255.255.255                         -                128.0.0.0       -
            169.254.0.0/16     169.254.0.0      169.254.255.255                         169.253.255.255                         -                169.255.0.0     -
            172.16.0.0/12      172.16.0.0       172.31.255.255                          172.15.255.255                          -                172.32.0.0      -
            192.0.0.0/24       192.0.0.0        192.0.0.255                             191.255.255.255                         -                192.0.1.0       -
            192.0.2.0/24       192.0.2.0        192.0.2.255                             192.0.1.255                             -                192.0.3.0       -
            192.31.196.0/24    192.31.196.0     192.31.196.255                          192.31.195.255                          -                192.31.197.0    -
            192.52.193.0/24    192.52.193.0     192.52.193.255                          192.52.192.255                          -                192.52.194.0    -
            192.88.99.0/24     192.88.99.0      192.88.99.255                           192.88.98.255                           -                192.88.100.0    -
            192.168.0.0/16     192.168.0.0      192.168.255.255                         192.167.255.255                         -                192.169.0.0     -
            192.175.48.0/24    192.175.48.0     192.175.48.255                          192.175.47.255                          -                192.175.49.0    -
            198.18.0.0/15      198.18.0.0       198.19.255.255                          198.17.255.255                          -                198.20.0.0      -
            198.51.100.0/24    198.51.100.0     198.51.100.255                          198.51.99.255                           -                198.51.101.0    -
            203.0.113.0/24     203.0.113.0      203.0.113.255                           203.0.112.255                           -                203.0.114.0     -
            224.0.0.0/4        224.0.0.0        239.255.255.255                         223.255.255.255                         -                240.0.0.0       240.0.0.0/4
            240.0.0.0/4        240.0.0.0        255.255.255.254                         239.255.255.255                         224.0.0.0/4      255.255.255.255 255.255.255.255/32
            255.255.255.255/32 255.255.255.255  255.255.255.255                         255.255.255.254                         240.0.0.0/4      .               -
            ::/128             ::               ::                                      .                                       -                ::1             ::1/128
            ::1/128            ::1              ::1                                     ::                                      ::/128           ::2             ::/96
            ::/96              ::2              ::255.255.255.255                       ::1                                     ::1/128          ::1:0:0         outside-2000::/3
            ::ffff:0.0.0.0/96  ::ffff:0.0.0.0   ::ffff:255.255.255.255                  ::fffe:ffff:ffff                        outside-2000::/3 ::1:0:0:0       outside-2000::/3
            ::ffff:0:0:0/96    ::ffff:0:0.0.0.0 ::ffff:0:255.255.255.255                ::fffe:ffff:ffff:ffff                   outside-2000::/3 ::ffff:1:0:0    outside-2000::/3
            64:ff9b::/96       64:ff9b::        64:ff9b::ffff:ffff                      64:ff9a:ffff:ffff:ffff:ffff:ffff:ffff   outside-2000::/3 64:ff9b::1:0:0  outside-2000::/3
            64:ff9b:1::/48     64:ff9b:1::      64:ff9b:1:ffff:ffff:ffff:ffff:ffff      64:ff9b:0:ffff:ffff:ffff:ffff:ffff      outside-2000::/3 64:ff9b:2::     outside-2000::/3
            100::/64           100::            100::ffff:ffff:ffff:ffff                ff:ffff:ffff:ffff:ffff:ffff:ffff:ffff   outside-2000::/3 100:0:0:1::     outside-2000::/3
            2001::/32          2001::           2001:0:ffff:ffff:ffff:ffff:ffff:ffff    2000:ffff:ffff:ffff:ffff:ffff:ffff:ffff -                2001:1::        2001::/23
            2001::/23          2001:1::         2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff  2001:0:ffff:ffff:ffff:ffff:ffff:ffff    2001::/32        2001:200::      -
            2001:db8::/32      2001:db8::       2001:db8:ffff:ffff:ffff:ffff:ffff:ffff  2001:db7:ffff:ffff:ffff:ffff:ffff:ffff  -                2001:db9::      -
            2002::/16          2002::           2002:ffff:ffff:ffff:ffff:ffff:ffff:ffff 2001:ffff:ffff:ffff:ffff:ffff:ffff:ffff -                2003::          -
            3fff::/20          3fff::           3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff  3ffe:ffff:ffff:ffff:ffff:ffff:ffff:ffff -                3fff:1000::     -
            5f00::/16          5f00::           5f00:ffff:ffff:ffff:ffff:ffff:ffff:ffff 5eff:ffff:ffff:ffff:ffff:ffff:ffff:ffff outside-2000::/3 5f01::          outside-2000::/3
            fc00::/7           fc00::           fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff outside-2000::/3 fe00::          outside-2000::/3
            fe80::/10          fe80::           febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff fe7f:ffff:ffff:ffff:ffff:ffff:ffff:ffff outside-2000::/3 fec0::          fec0::/10
            fec0::/10          fec0::           feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff fe80::/10        ff00::          ff00::/8
            ff00::/8           ff00::           ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff fec0::/10        .               -
            outside-2000::/3   4000::           1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff .                                       -                .               -
        ";
        let range = |a: &str| special(a.parse().unwrap()).map(|s| s.range);
        let opt = |t: &'static str| (t != "-").then(|| t.replace("outside-", "outside "));
        for row in table.lines().filter(|l| !l.trim().is_empty()) {
            let f: Vec<&str> = row.split_whitespace().collect();
            let name = f[0].replace("outside-", "outside ");
            let (first, last) = (f[1], f[2]);
            let (before, before_in, after, after_in) = (f[3], opt(f[4]), f[5], opt(f[6]));
            assert_eq!(range(first), Some(name.clone()), "{first}");
            assert_eq!(range(last), Some(name.clone()), "{last}");
            assert!(!is_public(first.parse().unwrap()), "{first}");
            for (edge, expected) in [(before, before_in), (after, after_in)] {
                if edge != "." {
                    assert_eq!(range(edge), expected, "{edge}, next to {name}");
                }
            }
        }
    }

    #[test]
    fn public_addresses_pass() {
        for ip in [
            "1.1.1.1",
            "8.8.8.8",
            "93.184.215.14",
            "223.255.255.255",
            "2a00:1450:4001:80b::200e",
            "2606:4700::1111",
            "2001:4860:4860::8888",
            "3ffe::1",
        ] {
            assert!(is_public(ip.parse().unwrap()), "{ip}");
        }
    }

    #[test]
    fn the_ipv4_address_an_ipv6_address_carries_is_judged_too() {
        let carried = |a: &str| {
            let s = special(a.parse().unwrap()).expect("special");
            let (v4, inner) = s.embedded.expect("carries an IPv4 address");
            (v4.to_string(), inner.map(|i| i.range))
        };
        let loopback = Some("127.0.0.0/8".to_string());
        assert_eq!(
            carried("::127.0.0.1"),
            ("127.0.0.1".into(), loopback.clone())
        );
        assert_eq!(
            carried("::ffff:127.0.0.1"),
            ("127.0.0.1".into(), loopback.clone())
        );
        assert_eq!(
            carried("::ffff:0:127.0.0.1"),
            ("127.0.0.1".into(), loopback.clone())
        );
        assert_eq!(
            carried("64:ff9b::7f00:1"),
            ("127.0.0.1".into(), loopback.clone())
        );
        assert_eq!(
            carried("64:ff9b:1::a9fe:a9fe"),
            ("169.254.169.254".into(), Some("169.254.0.0/16".into()))
        );
        assert_eq!(
            carried("2002:7f00:1::1"),
            ("127.0.0.1".into(), loopback.clone())
        );
        // Teredo carries the client's address inverted.
        assert_eq!(
            carried("2001:0:4136:e378:8000:63bf:80ff:fffe"),
            ("127.0.0.1".into(), loopback)
        );
        // Even a public address inside one of these forms is refused: the form itself is.
        assert_eq!(carried("::ffff:8.8.8.8"), ("8.8.8.8".into(), None));
        assert!(!is_public("::ffff:8.8.8.8".parse().unwrap()));
        assert!(!is_public("2002:808:808::1".parse().unwrap()));
        let text = special("::ffff:169.254.169.254".parse().unwrap())
            .unwrap()
            .to_string();
        assert_eq!(
            text,
            "::ffff:0.0.0.0/96 (IPv4-mapped), carrying 169.254.169.254 (link-local)"
        );
    }
}
