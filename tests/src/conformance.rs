//! Every answer a test receives is held to the committed spec (`openapi/openapi.json`): its
//! status must be one the operation documents, and each of the API's own response headers it
//! carries must be documented for that status. So the whole suite, thousands of requests of
//! every kind, checks that the spec tells the truth about what the server answers.

use std::collections::{BTreeSet, HashMap};
use std::sync::LazyLock;

use actix_web::http::header::HeaderMap;
use serde_json::Value;

/// The headers the API sets on purpose (not those of HTTP itself, such as `Content-Type`).
const API_HEADERS: [&str; 5] = [
    "Idempotent-Replayed",
    "Preference-Applied",
    "Retry-After",
    "ETag",
    "Content-Language",
];

/// One documented operation: its responses by status, each with its documented headers.
struct Operation {
    responses: HashMap<String, BTreeSet<String>>,
}

struct Spec {
    /// By method, then the path's segments (`{…}` for a parameter).
    operations: HashMap<String, Vec<(Vec<String>, String, Operation)>>,
}

static SPEC: LazyLock<Spec> = LazyLock::new(|| {
    let spec: Value = serde_json::from_str(include_str!("../../openapi/openapi.json"))
        .expect("the committed spec is JSON");
    let mut operations: HashMap<String, Vec<_>> = HashMap::new();
    for (path, methods) in spec["paths"].as_object().expect("paths") {
        for (method, operation) in methods.as_object().expect("methods") {
            let responses = operation["responses"]
                .as_object()
                .map(|r| {
                    r.iter()
                        .map(|(status, response)| {
                            let headers = response["headers"]
                                .as_object()
                                .map(|h| h.keys().map(|k| k.to_ascii_lowercase()).collect())
                                .unwrap_or_default();
                            (status.clone(), headers)
                        })
                        .collect()
                })
                .unwrap_or_default();
            let segments = path.split('/').map(str::to_string).collect();
            operations
                .entry(method.to_ascii_uppercase())
                .or_default()
                .push((segments, path.clone(), Operation { responses }));
        }
    }
    Spec { operations }
});

/// The documented operation that `method` and `path` (with its query) reach: the one whose
/// template matches with the most literal segments (`/v1/games/import` before
/// `/v1/games/{id}`). `None` for what the spec does not describe (the web client's files).
fn operation(method: &str, path: &str) -> Option<(&'static str, &'static Operation)> {
    let path = path.split(['?', '#']).next().unwrap_or(path);
    let segments: Vec<&str> = path.split('/').collect();
    SPEC.operations
        .get(method)?
        .iter()
        .filter(|(template, _, _)| {
            template.len() == segments.len()
                && template
                    .iter()
                    .zip(&segments)
                    .all(|(t, s)| t.starts_with('{') || t == s)
        })
        .max_by_key(|(template, _, _)| template.iter().filter(|t| !t.starts_with('{')).count())
        .map(|(_, name, operation)| (name.as_str(), operation))
}

/// Panics, naming the operation, where the answer is not one the spec documents.
pub fn check(method: &str, path: &str, status: u16, headers: &HeaderMap) {
    let Some((name, operation)) = operation(method, path) else {
        return;
    };
    // A fault of the server's own (a test breaks the database under it) is no answer the spec
    // promises; that nothing a client sends gets one is the fuzz test's to check.
    if status == 500 {
        return;
    }
    let status = status.to_string();
    let documented = operation
        .responses
        .get(&status)
        .or_else(|| operation.responses.get("default"));
    let Some(documented) = documented else {
        let mut known: Vec<_> = operation.responses.keys().collect();
        known.sort();
        panic!(
            "the spec does not document {status} for {method} {name} (it documents {known:?}); \
             the server answered it to {method} {path}"
        );
    };
    for header in API_HEADERS {
        if headers.contains_key(header) && !documented.contains(&header.to_ascii_lowercase()) {
            panic!(
                "the spec does not document the header {header} of {status} for {method} {name}; \
                 the server sent it to {method} {path}"
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::operation;

    #[test]
    fn a_literal_path_wins_over_a_template() {
        assert_eq!(
            operation("POST", "/v1/games/import").map(|o| o.0),
            Some("/v1/games/import")
        );
        assert_eq!(
            operation("GET", "/v1/games/7?x=1").map(|o| o.0),
            Some("/v1/games/{id}")
        );
        assert!(operation("GET", "/web/app.js").is_none());
    }
}
