//! Account names. What a player types becomes the stored name: NFKC-normalised (full-width and
//! other compatibility forms become plain letters) and trimmed, then 1–32 ASCII letters, digits,
//! `_`, `-` or `.`, with at least one letter. Names a reader could confuse (`l`/`I`/`1`,
//! `O`/`0`, `rn`/`m`, `vv`/`w`, `cl`/`d`, case, separators at the ends) are told apart by the
//! database, which keeps one account per `account_skeleton` (see
//! `migrations/V11__name_skeletons.sql`; the tests are in `tests/tests/e2e/name_skeletons.rs`).

use unicode_normalization::UnicodeNormalization;

/// The spec's pattern for a name as sent (surrounding whitespace is removed).
pub const PATTERN: &str = r"^\s*[0-9_.-]*[A-Za-z][A-Za-z0-9_.-]*\s*$";

/// At most this many characters, as sent and as stored.
pub const MAX_CHARS: usize = 32;

/// The name as it is stored, or `None` when it cannot be one.
pub fn normalize(raw: &str) -> Option<String> {
    if raw.chars().count() > MAX_CHARS {
        return None;
    }
    let name: String = raw.nfkc().collect();
    let name = name.trim();
    let allowed = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.');
    let ok = (1..=MAX_CHARS).contains(&name.chars().count())
        && name.chars().all(allowed)
        && name.chars().any(|c| c.is_ascii_alphabetic());
    ok.then(|| name.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_trimmed_and_normalised() {
        assert_eq!(normalize("  anna\t").as_deref(), Some("anna"));
        assert_eq!(normalize("ａｎｎａ").as_deref(), Some("anna"), "full-width");
        assert_eq!(normalize("ﬁnn").as_deref(), Some("finn"), "a ligature");
        assert_eq!(normalize("Bob_2.0").as_deref(), Some("Bob_2.0"));
    }

    #[test]
    fn a_name_needs_a_letter_and_only_allowed_characters() {
        for bad in [
            "",
            "   ",
            "1234",
            "_.-",
            "a b",
            "anna!",
            "jürgen",
            "аnna", // Cyrillic а
            "a\u{0}b",
            &"x".repeat(33),
            &format!(" {}", "x".repeat(32)),
        ] {
            assert_eq!(normalize(bad), None, "{bad:?}");
        }
        assert!(normalize(&"x".repeat(32)).is_some());
    }

    #[test]
    fn the_spec_pattern_is_what_the_server_accepts() {
        let spec = crate::openapi::spec();
        assert_eq!(
            spec.pointer("/components/schemas/NewAccount/properties/name/pattern"),
            Some(&serde_json::Value::from(PATTERN))
        );
        // Every string of up to three characters over letters, digits, separators, spaces and
        // others: the pattern (with the length) and the server agree. Compatibility forms such
        // as full-width letters are accepted beyond it, as the spec says in words.
        let pattern = regex::Regex::new(PATTERN).unwrap();
        let alphabet = ['a', 'Z', '0', '_', '.', '-', ' ', '!', 'é'];
        let mut strings = vec![String::new()];
        for _ in 0..3 {
            let longer: Vec<String> = strings
                .iter()
                .flat_map(|s| alphabet.iter().map(move |c| format!("{s}{c}")))
                .collect();
            strings.extend(longer);
        }
        strings.push("x".repeat(32));
        strings.push(format!(" {}", "x".repeat(32)));
        for s in &strings {
            let promised = pattern.is_match(s) && s.chars().count() <= MAX_CHARS;
            assert_eq!(promised, normalize(s).is_some(), "{s:?}");
        }
    }
}
