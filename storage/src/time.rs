//! Timestamps: milliseconds since the Unix epoch inside, RFC 3339 (UTC) outside.

use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

/// The store's clock: the system's, plus an offset that only tests move (the turn clock and
/// vacations count minutes and days; tests cannot wait for them).
#[derive(Debug, Default)]
pub(crate) struct Clock {
    offset_ms: AtomicI64,
}

impl Clock {
    pub fn now_ms(&self) -> i64 {
        now_ms() + self.offset_ms.load(Ordering::Relaxed)
    }

    #[cfg_attr(not(feature = "pause-points"), allow(dead_code))]
    pub fn advance(&self, ms: i64) {
        self.offset_ms.fetch_add(ms, Ordering::Relaxed);
    }
}

/// The system clock. The store itself reads [`crate::Store::now_ms`], which tests can move.
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// `2026-11-21T22:44:11.123Z`.
pub fn rfc3339(ms: i64) -> String {
    let secs = ms.div_euclid(1000);
    let millis = ms.rem_euclid(1000);
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{millis:03}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// Reads an RFC 3339 timestamp (`2026-11-21T22:44:11Z`, fractions of a second and a UTC offset
/// such as `+01:00` allowed) as ms since the epoch.
pub fn parse_rfc3339(s: &str) -> Option<i64> {
    let b = s.as_bytes();
    if b.len() < 20 || b[4] != b'-' || b[7] != b'-' || !matches!(b[10], b'T' | b't' | b' ') {
        return None;
    }
    if b[13] != b':' || b[16] != b':' {
        return None;
    }
    let num = |r: std::ops::Range<usize>| -> Option<i64> {
        let part = s.get(r)?;
        part.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| part.parse().ok())
            .flatten()
    };
    let (y, mo, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (h, mi, sec) = (num(11..13)?, num(14..16)?, num(17..19)?);
    if !(1..=12).contains(&mo) || !(1..=31).contains(&d) || h > 23 || mi > 59 || sec > 60 {
        return None;
    }
    let mut rest = &s[19..];
    let mut millis = 0;
    if let Some(fraction) = rest.strip_prefix('.') {
        let digits = fraction.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            return None;
        }
        let first3 = format!("{:0<3}", &fraction[..digits.min(3)]);
        millis = first3.parse::<i64>().ok()?;
        rest = &fraction[digits..];
    }
    let offset_min = match rest {
        "Z" | "z" => 0,
        _ if rest.len() == 6 && rest.as_bytes()[3] == b':' => {
            let sign = match rest.as_bytes()[0] {
                b'+' => 1,
                b'-' => -1,
                _ => return None,
            };
            let oh: i64 = rest.get(1..3)?.parse().ok()?;
            let om: i64 = rest.get(4..6)?.parse().ok()?;
            sign * (oh * 60 + om)
        }
        _ => return None,
    };
    let days = days_from_civil(y, mo as u32, d as u32);
    // A day the month does not have (2026-02-30) does not survive the round trip.
    if civil_from_days(days) != (y, mo as u32, d as u32) {
        return None;
    }
    Some(((days * 86_400 + h * 3600 + mi * 60 + sec - offset_min * 60) * 1000) + millis)
}

/// The first millisecond of `year` (UTC).
pub(crate) fn year_start_ms(year: i64) -> i64 {
    days_from_civil(year, 1, 1) * 86_400_000
}

/// The calendar year (UTC) of a timestamp.
pub(crate) fn year_of(ms: i64) -> i64 {
    let (y, _, _) = civil_from_days(ms.div_euclid(86_400_000));
    y
}

/// Howard Hinnant's civil-to-days algorithm.
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let m = m as i64;
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + d as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Howard Hinnant's days-to-civil algorithm.
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

#[cfg(test)]
mod tests {
    #[test]
    fn formats_utc() {
        assert_eq!(super::rfc3339(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(
            super::rfc3339(1_795_301_051_123),
            "2026-11-21T22:44:11.123Z"
        );
        assert_eq!(super::rfc3339(951_782_400_000), "2000-02-29T00:00:00.000Z");
    }

    #[test]
    fn parses_what_it_formats() {
        use super::{parse_rfc3339, rfc3339};
        for ms in [0, 1_795_301_051_123, 951_782_400_000] {
            assert_eq!(parse_rfc3339(&rfc3339(ms)), Some(ms));
        }
        assert_eq!(
            parse_rfc3339("2026-11-21T23:44:11+01:00"),
            Some(1_795_301_051_000)
        );
        for bad in [
            "",
            "2026-02-30T00:00:00Z",
            "2026-11-21T22:44:11",
            "tomorrow",
        ] {
            assert_eq!(parse_rfc3339(bad), None, "{bad}");
        }
    }

    #[test]
    fn years() {
        assert_eq!(super::year_start_ms(1970), 0);
        assert_eq!(
            super::rfc3339(super::year_start_ms(2027)),
            "2027-01-01T00:00:00.000Z"
        );
        assert_eq!(super::year_of(1_795_301_051_123), 2026);
        assert_eq!(super::year_of(super::year_start_ms(2027) - 1), 2026);
    }
}
