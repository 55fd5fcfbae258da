//! The web client at `/`: served from the binary, every file it imports is served, and none of
//! the existing routes changed. (Playing it in a real browser: `tests/web/run`.)

use baumeister_tests::TestServer;

async fn fetch(s: &TestServer, path: &str) -> (u16, String, String) {
    let mut res = s.request("GET", path, None).send().await.unwrap();
    let kind = res
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    let body = res.body().limit(4 << 20).await.unwrap();
    (
        res.status().as_u16(),
        kind,
        String::from_utf8(body.to_vec()).unwrap(),
    )
}

/// Paths named after `marker` and up to the next quote in one module, resolved against it.
fn named_after(path: &str, source: &str, marker: &str) -> Vec<String> {
    let dir = &path[..path.rfind('/').unwrap() + 1];
    let mut found = Vec::new();
    for quote in ["'", "\""] {
        for part in source.split(&format!("{marker}{quote}")).skip(1) {
            let target = &part[..part.find(quote).unwrap()];
            let mut segments: Vec<&str> = dir.trim_end_matches('/').split('/').collect();
            for seg in target.split('/') {
                match seg {
                    "." => {}
                    ".." => {
                        segments.pop();
                    }
                    s => segments.push(s),
                }
            }
            found.push(segments.join("/"));
        }
    }
    found
}

/// `import … from './x.js'` paths of one module (loaded with it), resolved against it.
fn imports(path: &str, source: &str) -> Vec<String> {
    named_after(path, source, "from ")
}

/// `import('./x.js')` paths of one module (loaded when it asks), resolved against it.
fn dynamic_imports(path: &str, source: &str) -> Vec<String> {
    named_after(path, source, "import(")
}

/// The folder the page names its files in (`/web/v-<fingerprint>/`).
fn folder(html: &str) -> String {
    let at = html.find("/web/v-").expect("a fingerprinted folder");
    let end = at + html[at + 5..].find('/').unwrap() + 6;
    html[at..end].to_string()
}

#[actix_web::test]
async fn the_page_and_every_module_it_imports_are_served() {
    let s = TestServer::start().await;
    let (status, kind, html) = fetch(&s, "/").await;
    assert_eq!(status, 200);
    assert!(kind.starts_with("text/html"), "{kind}");
    let web = folder(&html);
    assert!(html.contains(&format!("{web}app.js")) && html.contains(&format!("{web}style.css")));
    let (status, kind, _) = fetch(&s, &format!("{web}style.css")).await;
    assert_eq!((status, kind.starts_with("text/css")), (200, true));
    // Browsers ask for /favicon.ico by themselves: an icon, not a 404 in every console.
    let (status, kind, icon) = fetch(&s, "/favicon.ico").await;
    assert_eq!((status, kind.as_str()), (200, "image/svg+xml"));
    assert!(icon.starts_with("<svg"), "{icon}");
    assert!(
        html.contains(&format!("{web}icon.svg")),
        "the page names its icon"
    );
    // Walk the module graph from app.js, those loaded later too: a module missing from the
    // binary would break the page.
    let mut todo = vec![format!("{web}app.js")];
    let mut seen = std::collections::BTreeSet::new();
    while let Some(path) = todo.pop() {
        if !seen.insert(path.clone()) {
            continue;
        }
        let (status, kind, source) = fetch(&s, &path).await;
        assert_eq!(status, 200, "{path} is served");
        assert!(kind.starts_with("text/javascript"), "{path}: {kind}");
        todo.extend(imports(&path, &source));
        todo.extend(dynamic_imports(&path, &source));
    }
    for kind in [
        "burgbaumeister",
        "wettstreit",
        "space-builder",
        "mauerbauer",
        "carcassonne",
    ] {
        assert!(
            seen.contains(&format!("{web}games/{kind}/board.js")),
            "a board for {kind}"
        );
    }
    // Every kind the server offers has a board module.
    let kinds = s.get("/v1/kinds", None).await;
    for k in kinds.body.as_array().unwrap() {
        let path = format!("{web}games/{}/board.js", k["kind"].as_str().unwrap());
        assert!(seen.contains(&path), "no board for {path}");
    }
    s.finish().await;
}

/// The page can be installed: it links a manifest with a name, `/` to start, a standalone
/// window and its icons (SVG, PNG 192 and 512, a maskable one), and every icon it names is
/// served as what it says it is (the PNGs byte for byte, not as text).
#[actix_web::test]
async fn the_page_is_installable() {
    let s = TestServer::start().await;
    let (_, _, html) = fetch(&s, "/").await;
    let web = folder(&html);
    assert!(html.contains(&format!(
        r#"<link rel="manifest" href="{web}manifest.webmanifest">"#
    )));
    assert!(html.contains(r#"rel="apple-touch-icon""#), "{html}");
    assert!(html.contains(r#"<meta name="theme-color""#), "{html}");
    let (status, kind, text) = fetch(&s, &format!("{web}manifest.webmanifest")).await;
    assert_eq!((status, kind.as_str()), (200, "application/manifest+json"));
    let manifest: baumeister_tests::serde_json::Value =
        baumeister_tests::serde_json::from_str(&text).unwrap();
    assert_eq!(manifest["start_url"], "/");
    assert_eq!(manifest["display"], "standalone");
    assert_eq!(manifest["short_name"], "Baumeister");
    assert!(manifest["name"].as_str().unwrap().starts_with("Baumeister"));
    assert!(manifest["theme_color"].is_string() && manifest["background_color"].is_string());
    let icons = manifest["icons"].as_array().unwrap();
    let has = |size: &str, purpose: &str| {
        icons
            .iter()
            .any(|i| i["sizes"] == size && i["purpose"].as_str().unwrap_or("any") == purpose)
    };
    assert!(has("192x192", "any") && has("512x512", "any") && has("512x512", "maskable"));
    let apple = html
        .split(r#"rel="apple-touch-icon" href=""#)
        .nth(1)
        .unwrap();
    let mut paths: Vec<(String, String)> = icons
        .iter()
        .map(|i| {
            (
                i["src"].as_str().unwrap().to_string(),
                i["type"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    paths.push((
        apple[..apple.find('"').unwrap()].to_string(),
        "image/png".into(),
    ));
    for (path, media) in paths {
        let mut res = s.request("GET", &path, None).send().await.unwrap();
        assert_eq!(res.status().as_u16(), 200, "{path}");
        assert_eq!(
            res.headers().get("content-type").unwrap(),
            media.as_str(),
            "{path}"
        );
        let body = res.body().limit(1 << 20).await.unwrap();
        if media == "image/png" {
            assert!(body.starts_with(b"\x89PNG\r\n\x1a\n"), "{path} is a PNG");
            // The size the manifest names is the size of the picture (width, height at 16..24).
            let side = u32::from_be_bytes(body[16..20].try_into().unwrap());
            assert_eq!(
                u32::from_be_bytes(body[20..24].try_into().unwrap()),
                side,
                "{path} is square"
            );
            assert!([180, 192, 512].contains(&side), "{path}: {side} px");
        }
    }
    s.finish().await;
}

#[actix_web::test]
async fn the_client_leaves_the_api_routes_alone_and_is_not_in_the_spec() {
    let s = TestServer::start().await;
    assert_eq!(s.get("/healthz", None).await.status, 200);
    assert_eq!(s.get("/v1/games", None).await.status, 200);
    assert_eq!(s.get("/v1/kinds", None).await.status, 200);
    let spec = s.get("/openapi.json", None).await;
    assert_eq!(spec.status, 200);
    let paths = spec.body["paths"].as_object().unwrap();
    // The API and the operator's routes (health, readiness, metrics), nothing of the client.
    assert!(paths.keys().all(
        |p| p.starts_with("/v1/") || ["/healthz", "/readyz", "/metrics"].contains(&p.as_str())
    ));
    let (status, _, _) = fetch(&s, "/docs/").await;
    assert_eq!(status, 200);
    // Unknown files and paths are still problem+json 404s.
    let r = s.get("/web/nothing.js", None).await;
    assert_eq!((r.status, r.code()), (404, "not_found"));
    let r = s.get("/nothing", None).await;
    assert_eq!((r.status, r.code()), (404, "not_found"));
    let r = s
        .post("/", None, &baumeister_tests::serde_json::json!({}))
        .await;
    assert_eq!(r.status, 405);
    s.finish().await;
}

/// A response's status, headers and raw body, with `headers` sent.
async fn raw(
    s: &TestServer,
    path: &str,
    headers: &[(&str, &str)],
) -> (u16, awc::http::header::HeaderMap, Vec<u8>) {
    let mut request = s.request("GET", path, None);
    for (name, value) in headers {
        request = request.insert_header((*name, *value));
    }
    let mut res = request.send().await.unwrap();
    let body = res.body().limit(4 << 20).await.unwrap();
    (res.status().as_u16(), res.headers().clone(), body.to_vec())
}

fn header<'a>(headers: &'a awc::http::header::HeaderMap, name: &str) -> &'a str {
    headers.get(name).map(|v| v.to_str().unwrap()).unwrap_or("")
}

/// A page that loads at once: the page is revalidated by its ETag (a repeat visit is a `304`),
/// the files it names are fingerprinted and cached as immutable, text goes gzip-compressed to
/// a browser that takes it, and the page loads neither language catalogue nor any kind's board
/// before it knows which one it needs.
#[actix_web::test]
async fn the_page_is_revalidated_and_its_files_are_immutable_and_compressed() {
    let s = TestServer::start().await;
    let (status, headers, html) = raw(&s, "/", &[]).await;
    assert_eq!(status, 200);
    assert_eq!(header(&headers, "cache-control"), "no-cache");
    let etag = header(&headers, "etag").to_string();
    assert!(etag.starts_with('"'), "an ETag: {etag:?}");
    let (status, _, body) = raw(&s, "/", &[("If-None-Match", &etag)]).await;
    assert_eq!((status, body.len()), (304, 0), "a repeat visit");

    let web = folder(&String::from_utf8(html).unwrap());
    let app = format!("{web}app.js");
    let (status, headers, plain) = raw(&s, &app, &[]).await;
    assert_eq!(status, 200);
    let caching = header(&headers, "cache-control");
    assert!(
        caching.contains("immutable") && caching.contains("max-age=31536000"),
        "{caching}"
    );
    assert_eq!(header(&headers, "content-encoding"), "");
    let (_, headers, packed) = raw(&s, &app, &[("Accept-Encoding", "gzip, deflate, br")]).await;
    assert_eq!(header(&headers, "content-encoding"), "gzip");
    assert!(header(&headers, "vary").contains("Accept-Encoding"));
    assert!(packed.starts_with(&[0x1f, 0x8b]), "gzip's magic");
    assert!(
        packed.len() < plain.len() / 2,
        "{} of {}",
        packed.len(),
        plain.len()
    );
    let (_, headers, _) = raw(&s, &app, &[("Accept-Encoding", "gzip;q=0")]).await;
    assert_eq!(header(&headers, "content-encoding"), "", "gzip refused");

    // Another build's address is served, but not cached as if it were this one's.
    let (status, headers, _) = raw(&s, "/web/v-0123456789abcdef/app.js", &[]).await;
    assert_eq!(status, 200);
    assert_eq!(header(&headers, "cache-control"), "no-cache");
    // The plain address is revalidated by its ETag.
    let (_, headers, _) = raw(&s, "/web/app.js", &[]).await;
    assert_eq!(header(&headers, "cache-control"), "no-cache");
    let etag = header(&headers, "etag").to_string();
    let (status, _, _) = raw(&s, "/web/app.js", &[("If-None-Match", &etag)]).await;
    assert_eq!(status, 304);

    // The spec, which the create form reads: compressed, and a `304` once held.
    let (status, headers, packed) = raw(&s, "/openapi.json", &[("Accept-Encoding", "gzip")]).await;
    assert_eq!(status, 200);
    assert_eq!(header(&headers, "content-type"), "application/json");
    assert_eq!(header(&headers, "content-encoding"), "gzip");
    assert!(packed.len() < 200_000, "{} bytes", packed.len());
    let etag = header(&headers, "etag").to_string();
    let (status, _, _) = raw(&s, "/openapi.json", &[("If-None-Match", &etag)]).await;
    assert_eq!(status, 304);

    // The kinds, which every game page reads: they change only with the server, so a repeat
    // visit revalidates them (a `304`, not 3.6 KB), and they go compressed.
    for path in ["/v1/kinds", "/v1/kinds/carcassonne"] {
        let (status, headers, packed) = raw(&s, path, &[("Accept-Encoding", "gzip")]).await;
        assert_eq!(status, 200, "{path}");
        assert_eq!(header(&headers, "cache-control"), "no-cache", "{path}");
        assert_eq!(header(&headers, "content-encoding"), "gzip", "{path}");
        assert!(packed.starts_with(&[0x1f, 0x8b]), "{path}: gzip's magic");
        let etag = header(&headers, "etag").to_string();
        let (status, _, body) = raw(&s, path, &[("If-None-Match", &etag)]).await;
        assert_eq!((status, body.len()), (304, 0), "{path}: a repeat visit");
        let (status, _, body) = raw(&s, path, &[("If-None-Match", "\"older\"")]).await;
        assert_eq!(status, 200, "{path}: another version is sent whole");
        let parsed: baumeister_tests::serde_json::Value =
            baumeister_tests::serde_json::from_slice(&body).unwrap();
        assert!(
            parsed.is_array() || parsed["kind"] == "carcassonne",
            "{path}: {parsed}"
        );
    }
    // Each kind carries its options' schemas and those they refer to (the create form reads no
    // spec): as the spec's components hold them.
    let spec = s.get("/openapi.json", None).await.body;
    let kinds = s.get("/v1/kinds", None).await.body;
    for k in kinds.as_array().unwrap() {
        let name = k["options_schema"].as_str().unwrap();
        let schemas = k["options_schemas"].as_object().unwrap();
        assert_eq!(
            schemas[name], spec["components"]["schemas"][name],
            "{name} as the spec has it"
        );
        if k["kind"] == "space-builder" {
            assert!(
                schemas.contains_key("SpaceBuilderTiming"),
                "what the options refer to comes along: {:?}",
                schemas.keys().collect::<Vec<_>>()
            );
        }
    }

    // The modules the page loads with app.js: no catalogue and no board among them.
    let mut todo = vec![app];
    let mut loaded = std::collections::BTreeSet::new();
    while let Some(path) = todo.pop() {
        if loaded.insert(path.clone()) {
            let (_, _, source) = fetch(&s, &path).await;
            todo.extend(imports(&path, &source));
        }
    }
    for path in &loaded {
        let name = &path[web.len()..];
        assert!(
            !name.starts_with("i18n/e")
                && !name.starts_with("i18n/d")
                && (!name.starts_with("games/") || name == "games/index.js"),
            "{name} is loaded before the page knows it needs it"
        );
    }
    s.finish().await;
}
