//! `Prefer` (RFC 7240): the preferences a request states that this server honours.

use actix_web::HttpRequest;

/// Whether the request prefers `return=representation` (RFC 7240 §4.2): for a command, the
/// caller's board and legal moves in the answer. Preferences are comma-separated, each
/// `name[=value]` with `;` parameters, in one or more `Prefer` headers; names are
/// case-insensitive and a value may be quoted. When a preference is stated more than once only
/// the first counts (§2), and whatever is not understood is ignored: a preference is never an
/// error.
pub fn wants_representation(req: &HttpRequest) -> bool {
    prefers_representation(
        req.headers()
            .get_all("Prefer")
            .filter_map(|v| v.to_str().ok()),
    )
}

fn prefers_representation<'a>(headers: impl Iterator<Item = &'a str>) -> bool {
    headers
        .flat_map(|h| h.split(','))
        .find_map(|preference| {
            let first = preference.split(';').next().unwrap_or("");
            let (name, value) = first.split_once('=').unwrap_or((first, ""));
            name.trim()
                .eq_ignore_ascii_case("return")
                .then(|| value.trim().trim_matches('"').to_ascii_lowercase())
        })
        .is_some_and(|value| value == "representation")
}

#[cfg(test)]
mod tests {
    use super::prefers_representation;

    fn prefers(headers: &[&str]) -> bool {
        prefers_representation(headers.iter().copied())
    }

    #[test]
    fn return_representation_in_any_spelling_rfc_7240_allows() {
        assert!(prefers(&["return=representation"]));
        assert!(prefers(&["Return = \"Representation\""]));
        assert!(prefers(&[
            "respond-async, wait=10, return=representation; x=1"
        ]));
        assert!(prefers(&["handling=lenient", "return=representation"]));
    }

    #[test]
    fn anything_else_keeps_the_minimal_answer() {
        assert!(!prefers(&[]));
        assert!(!prefers(&[""]));
        assert!(!prefers(&["return=minimal"]));
        assert!(!prefers(&["return"]));
        assert!(!prefers(&["return=representations"]));
        assert!(!prefers(&["x-return=representation"]));
        // Only the first instance of a preference counts (RFC 7240 §2).
        assert!(!prefers(&["return=minimal, return=representation"]));
        assert!(!prefers(&["return=minimal", "return=representation"]));
    }
}
