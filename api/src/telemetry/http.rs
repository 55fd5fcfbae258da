//! Every answered request, by the pattern of the route that answered it (never the raw path:
//! game ids would make a series each), its method and status.

use std::time::Duration;

use actix_web::dev::ServiceResponse;

pub fn request<B>(response: &ServiceResponse<B>, took: Duration) {
    if !super::recording() {
        return;
    }
    let request = response.request();
    // Matched again from the resource map: the route of commands is its first pattern.
    let route = request
        .match_pattern()
        .map_or_else(|| "unmatched".to_string(), |p| label(&p));
    metrics::histogram!(
        "baumeister_http_request_duration_seconds",
        "route" => route,
        "method" => request.method().as_str().to_string(),
        "status" => response.status().as_str().to_string()
    )
    .record(took);
}

/// A route's pattern as a label: each `{name}` or `{name:regex}` as `:name`
/// (`/v1/games/:id/commands`), which PromQL's regular expressions take without escapes.
fn label(pattern: &str) -> String {
    if !pattern.contains('{') {
        return pattern.to_string();
    }
    let mut out = String::with_capacity(pattern.len());
    let mut rest = pattern;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let Some(close) = rest[open..].find('}') else {
            break;
        };
        let inner = &rest[open + 1..open + close];
        out.push(':');
        out.push_str(inner.split(':').next().unwrap_or(inner));
        rest = &rest[open + close + 1..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::label;

    #[test]
    fn parameters_are_labelled_by_name_only() {
        assert_eq!(label("/v1/games/{id}/commands"), "/v1/games/:id/commands");
        assert_eq!(
            label("/v1/games/{id}/invitations/{invitation_id}"),
            "/v1/games/:id/invitations/:invitation_id"
        );
        assert_eq!(label("/web/{file:.+}"), "/web/:file");
        assert_eq!(label("/v1/kinds"), "/v1/kinds");
    }
}
