//! `Accept-Language` (RFC 9110 §12.5.4): which language of a document to answer with.
//!
//! Negotiation never fails: whatever a client sends, malformed or asking only for languages we
//! do not have, it gets the default language rather than a 406.

use actix_web::HttpRequest;
use baumeister_domain::Language;

/// The language to answer in, among `available` (which holds [`Language::DEFAULT`]), for the
/// request's `Accept-Language` headers.
pub fn negotiate(req: &HttpRequest, available: &[Language]) -> Language {
    choose(
        req.headers()
            .get_all("Accept-Language")
            .filter_map(|v| v.to_str().ok()),
        available,
    )
}

/// A language range with its weight in thousandths (`q=0.8` is 800).
struct Range<'a> {
    range: &'a str,
    weight: u16,
}

impl Range<'_> {
    fn is_wildcard(&self) -> bool {
        self.range == "*"
    }

    /// `de-DE` and `de` ask for German: a tag is looked up by its primary subtag (RFC 4647 §3.4
    /// truncates a range until it matches), which is all our documents' tags have.
    fn primary_subtag(&self) -> &str {
        self.range.split('-').next().unwrap_or("")
    }
}

/// Each comma-separated element is `range[;q=weight]`; an element that does not parse is left
/// out, the others still count.
fn parse(element: &str) -> Option<Range<'_>> {
    let mut parts = element.split(';');
    let range = parts.next()?.trim();
    let well_formed = range == "*"
        || range.split('-').enumerate().all(|(i, subtag)| {
            (1..=8).contains(&subtag.len())
                && subtag
                    .chars()
                    .all(|c| c.is_ascii_alphabetic() || (i > 0 && c.is_ascii_digit()))
        });
    if !well_formed {
        return None;
    }
    let mut weight = 1000;
    for parameter in parts {
        let (name, value) = parameter.split_once('=')?;
        if name.trim().eq_ignore_ascii_case("q") {
            weight = qvalue(value.trim())?;
        }
    }
    Some(Range { range, weight })
}

/// `qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )`, in thousandths.
fn qvalue(text: &str) -> Option<u16> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    if fraction.len() > 3 || !fraction.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let thousandths: u16 = format!("{fraction:0<3}").parse().ok()?;
    match whole {
        "0" => Some(thousandths),
        "1" if thousandths == 0 => Some(1000),
        _ => None,
    }
}

fn choose<'a>(headers: impl Iterator<Item = &'a str>, available: &[Language]) -> Language {
    let ranges: Vec<Range> = headers
        .flat_map(|h| h.split(','))
        .filter(|element| !element.trim().is_empty())
        .filter_map(parse)
        .collect();
    // A language's weight and the position of the range that gave it: an exact range (`de`)
    // wins over longer ones (`de-AT`), which give the highest of their weights; `*` weighs only
    // languages no range names.
    let weigh = |language: Language| -> Option<(u16, usize)> {
        let named = |r: &Range| r.primary_subtag().eq_ignore_ascii_case(language.tag());
        let exact = ranges
            .iter()
            .position(|r| r.range.eq_ignore_ascii_case(language.tag()));
        let longer = ranges
            .iter()
            .enumerate()
            .filter(|(_, r)| named(r))
            .max_by_key(|(i, r)| (r.weight, std::cmp::Reverse(*i)));
        let wildcard = ranges.iter().position(Range::is_wildcard);
        match (exact, longer, wildcard) {
            (Some(i), _, _) => Some((ranges[i].weight, i)),
            (None, Some((i, r)), _) => Some((r.weight, i)),
            (None, None, Some(i)) => Some((ranges[i].weight, i)),
            (None, None, None) => None,
        }
    };
    // The heaviest, then the one the client listed first, then the default.
    available
        .iter()
        .enumerate()
        .filter_map(|(order, &language)| {
            let (weight, position) = weigh(language)?;
            (weight > 0).then_some((weight, position, order, language))
        })
        .min_by_key(|&(weight, position, order, _)| (std::cmp::Reverse(weight), position, order))
        .map_or(Language::DEFAULT, |(.., language)| language)
}

#[cfg(test)]
mod tests {
    use super::{choose, qvalue};
    use baumeister_domain::Language::{self, De, En};

    fn pick(headers: &[&str]) -> Language {
        choose(headers.iter().copied(), &Language::ALL)
    }

    #[test]
    fn the_heaviest_language_we_have_wins() {
        assert_eq!(pick(&["de-DE,de;q=0.9,en;q=0.8"]), De);
        assert_eq!(pick(&["de"]), De);
        assert_eq!(pick(&["DE-at"]), De);
        assert_eq!(pick(&["en"]), En);
        assert_eq!(pick(&["en-GB,en;q=0.9,de;q=0.8"]), En);
        assert_eq!(pick(&["fr-CH, fr;q=0.9, de;q=0.7, en;q=0.5"]), De);
        assert_eq!(pick(&["en;q=0.5, de;q=0.6"]), De);
        assert_eq!(pick(&["fr", "de;q=0.3"]), De);
        assert_eq!(pick(&["de ; q = 1.000 , en;q=0.999"]), De);
    }

    #[test]
    fn equal_weights_go_to_the_first_listed() {
        assert_eq!(pick(&["de, en"]), De);
        assert_eq!(pick(&["en, de"]), En);
        assert_eq!(pick(&["en", "de"]), En);
    }

    #[test]
    fn the_wildcard_weighs_only_languages_nobody_named() {
        assert_eq!(pick(&["*"]), En);
        assert_eq!(pick(&["fr, *;q=0.5"]), En);
        assert_eq!(pick(&["en;q=0, *"]), De);
        assert_eq!(pick(&["de, *;q=0.5"]), De);
        assert_eq!(pick(&["*;q=0.9, de"]), De);
    }

    #[test]
    fn zero_excludes_and_an_exact_range_decides() {
        assert_eq!(pick(&["de;q=0, en;q=0.1"]), En);
        assert_eq!(pick(&["de;q=0"]), En);
        assert_eq!(pick(&["de-CH;q=0.8, de;q=0, en;q=0.1"]), En);
        assert_eq!(pick(&["de-CH;q=0, en;q=0.5, de-AT"]), De);
    }

    #[test]
    fn anything_else_is_the_default_and_never_an_error() {
        assert_eq!(pick(&[]), En);
        assert_eq!(pick(&[""]), En);
        assert_eq!(pick(&["fr"]), En);
        assert_eq!(pick(&[",,;"]), En);
        assert_eq!(pick(&["de;q=2"]), En);
        assert_eq!(pick(&["de;q=abc"]), En);
        assert_eq!(pick(&["de;q=0.1234"]), En);
        assert_eq!(pick(&["de;q"]), En);
        assert_eq!(pick(&["deutschland-sprache"]), En);
        assert_eq!(pick(&["d3"]), En);
        assert_eq!(pick(&["de-"]), En);
        assert_eq!(pick(&["Ã¼ber"]), En);
        // A malformed element spoils only itself.
        assert_eq!(pick(&["de;q=x, de-AT;q=0.5, en;q=0.4"]), De);
        // Only English available: English whatever is asked.
        assert_eq!(choose(["de"].into_iter(), &[En]), En);
    }

    #[test]
    fn qvalues_are_rfc_9110s() {
        assert_eq!(qvalue("1"), Some(1000));
        assert_eq!(qvalue("1.000"), Some(1000));
        assert_eq!(qvalue("0"), Some(0));
        assert_eq!(qvalue("0.5"), Some(500));
        assert_eq!(qvalue("0.05"), Some(50));
        assert_eq!(qvalue("0."), Some(0));
        assert_eq!(qvalue("1.001"), None);
        assert_eq!(qvalue(".5"), None);
        assert_eq!(qvalue("0.-5"), None);
        assert_eq!(qvalue("-0"), None);
    }
}
