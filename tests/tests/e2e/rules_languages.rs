//! `GET /v1/kinds/{kind}/rules` in the reader's language: `Accept-Language` chooses between the
//! English and the German document, the answer says which (`Content-Language`) and that caches
//! must keep one copy per language (`Vary`), and no header, however odd, makes it an error.

use actix_web::http::header::HeaderValue;
use baumeister_domain::{registry, Language};
use baumeister_tests::{Reply, TestServer};

/// The rules of `kind` with these `Accept-Language` headers (one header line each).
async fn rules(s: &TestServer, kind: &str, accept_language: &[HeaderValue]) -> Reply {
    let mut request = s.request("GET", &format!("/v1/kinds/{kind}/rules"), None);
    for value in accept_language {
        request = request.append_header(("Accept-Language", value.clone()));
    }
    s.send(request, None).await
}

fn header(value: &str) -> HeaderValue {
    HeaderValue::from_str(value).unwrap()
}

/// The reply is the kind's document in `language`, labelled and varying as it should.
fn assert_served(reply: &Reply, kind: &str, language: Language, asked: &str) {
    let game = registry::find(kind).unwrap();
    assert_eq!(reply.status, 200, "{kind} for {asked:?}");
    assert_eq!(
        reply.header("content-type"),
        Some("text/markdown; charset=utf-8")
    );
    assert_eq!(
        reply.header("content-language"),
        Some(language.tag()),
        "{kind} for {asked:?}"
    );
    let vary: Vec<String> = reply
        .headers
        .get_all("vary")
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(|v| v.trim().to_ascii_lowercase())
        .collect();
    assert!(
        vary.iter().any(|v| v == "accept-language"),
        "{kind} for {asked:?}: Vary {vary:?}"
    );
    assert_eq!(
        reply.body.as_str(),
        game.rules_in(language),
        "{kind} for {asked:?}: the {} document",
        language.tag()
    );
}

#[actix_web::test]
async fn every_kind_answers_in_german_when_asked_and_in_english_otherwise() {
    let s = TestServer::start().await;
    for game in registry::all() {
        let kind = game.kind();
        let german = rules(&s, kind, &[header("de-DE,de;q=0.9,en;q=0.8")]).await;
        assert_served(&german, kind, Language::De, "de-DE,de;q=0.9,en;q=0.8");
        let english = rules(&s, kind, &[header("en")]).await;
        assert_served(&english, kind, Language::En, "en");
        let none = rules(&s, kind, &[]).await;
        assert_served(&none, kind, Language::En, "no header");
        assert_ne!(german.body, english.body, "{kind}: two documents");
    }
    s.finish().await;
}

#[actix_web::test]
async fn weights_wildcards_and_languages_we_lack() {
    let s = TestServer::start().await;
    let cases: &[(&[&str], Language)] = &[
        (&["de"], Language::De),
        (&["DE-at"], Language::De),
        (&["de-CH, fr;q=0.9"], Language::De),
        (&["en-US,en;q=0.9,de;q=0.8"], Language::En),
        (&["en;q=0.4, de;q=0.5"], Language::De),
        (&["fr-FR, fr;q=0.9, de;q=0.3"], Language::De),
        (&["fr"], Language::En),
        (&["*"], Language::En),
        (&["fr, *;q=0.1"], Language::En),
        (&["en;q=0, *"], Language::De),
        (&["de;q=0"], Language::En),
        (&["de;q=0, en;q=0.2"], Language::En),
        (&["de, en"], Language::De),
        (&["en, de"], Language::En),
        // Several header lines are one list.
        (&["fr", "de;q=0.5"], Language::De),
        (&["en;q=0.1", "de;q=0.2"], Language::De),
    ];
    for (headers, language) in cases {
        let values: Vec<HeaderValue> = headers.iter().map(|h| header(h)).collect();
        let reply = rules(&s, "wettstreit", &values).await;
        assert_served(&reply, "wettstreit", *language, &headers.join(" | "));
    }
    s.finish().await;
}

#[actix_web::test]
async fn malformed_headers_get_english_and_never_an_error() {
    let s = TestServer::start().await;
    let cases = [
        "",
        " ",
        ",,,;;;",
        "de;q=2",
        "de;q=abc",
        "de;q=0.1234",
        "de;q",
        "de;",
        "q=1",
        "d3",
        "de-",
        "-de",
        "deutschland",
        "de;q=0.5;q=1.5",
        "=de",
        "\"de\"",
    ];
    for value in cases {
        let reply = rules(&s, "burgbaumeister", &[header(value)]).await;
        assert_served(&reply, "burgbaumeister", Language::En, value);
    }
    // Bytes that are not text at all (obs-text): still English.
    let bytes = HeaderValue::from_bytes(b"de\xff;q=1").unwrap();
    let reply = rules(&s, "burgbaumeister", &[bytes]).await;
    assert_served(&reply, "burgbaumeister", Language::En, "non-UTF-8 bytes");
    // A very long header (many ranges): answered, and a good range in it still counts.
    let long = format!("{}de;q=0.5", "xx;q=0.1, ".repeat(300));
    let reply = rules(&s, "burgbaumeister", &[header(&long)]).await;
    assert_served(&reply, "burgbaumeister", Language::De, "a long list");
    // A broken element spoils only itself.
    let reply = rules(
        &s,
        "burgbaumeister",
        &[header("de;q=x, de-AT;q=0.7, en;q=0.6")],
    )
    .await;
    assert_served(&reply, "burgbaumeister", Language::De, "one broken element");
    s.finish().await;
}

#[actix_web::test]
async fn an_unknown_kind_is_still_a_problem_in_any_language() {
    let s = TestServer::start().await;
    let reply = rules(&s, "chess", &[header("de")]).await;
    assert_eq!((reply.status, reply.code()), (404, "kind_not_found"));
    assert_eq!(
        reply.header("content-type"),
        Some("application/problem+json")
    );
    s.finish().await;
}
