//! `docs/configuration.md` lists every environment variable the server reads, and nothing else.
//!
//! The names are collected from the api crate's sources, not from a list kept by hand: every
//! call of `env::var`/`env::var_os` with a literal name, and every call of a function or closure
//! that passes its own argument on to one of those (config's `number`, `rate`, `seconds`, …),
//! found again however the configuration is split into files or its helpers renamed.

use regex::Regex;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// Variables read by a library the server calls rather than by a call in its own sources: the
/// name, and the text in the sources that makes the library read it.
const READ_BY_LIBRARIES: &[(&str, &str)] = &[("RUST_LOG", "EnvFilter::try_from_default_env")];

/// The heading of the section of `docs/configuration.md` whose table this test holds to the code.
const SECTION: &str = "## The server";

fn sources(dir: &Path, found: &mut Vec<(PathBuf, String)>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).unwrap();
            found.push((path, text));
        }
    }
}

/// The name of the function or closure whose definition most closely precedes `at`.
fn enclosing_definition(text: &str, at: usize) -> Option<String> {
    let definition = Regex::new(
        r"(?:\bfn\s+([a-z_][a-z0-9_]*)|\blet\s+([a-z_][a-z0-9_]*)\s*=\s*(?:move\s*)?\|)",
    )
    .unwrap();
    definition
        .captures_iter(&text[..at])
        .last()
        .and_then(|c| c.get(1).or_else(|| c.get(2)))
        .map(|m| m.as_str().to_string())
}

/// Every environment variable the api crate's sources read.
fn variables_read(files: &[(PathBuf, String)]) -> BTreeSet<String> {
    // A reader is `var`/`var_os`, or anything that hands its argument on to a reader unchanged.
    let mut readers: BTreeSet<String> = ["var", "var_os"].iter().map(|s| s.to_string()).collect();
    loop {
        let before = readers.len();
        for (_, text) in files {
            for reader in readers.clone() {
                let forwarding =
                    Regex::new(&format!(r"\b{reader}\(\s*([a-z_][a-z0-9_]*)\s*[,)]")).unwrap();
                for call in forwarding.captures_iter(text) {
                    let start = call.get(0).unwrap().start();
                    if let Some(name) = enclosing_definition(text, start) {
                        readers.insert(name);
                    }
                }
            }
        }
        if readers.len() == before {
            break;
        }
    }
    let mut names = BTreeSet::new();
    for (_, text) in files {
        for reader in &readers {
            let literal = Regex::new(&format!(r#"\b{reader}\(\s*"([A-Z][A-Z0-9_]*)""#)).unwrap();
            for call in literal.captures_iter(text) {
                names.insert(call[1].to_string());
            }
        }
    }
    for (name, marker) in READ_BY_LIBRARIES {
        if files.iter().any(|(_, text)| text.contains(marker)) {
            names.insert(name.to_string());
        }
    }
    names
}

/// The first column of every row of the table in `SECTION`, each a name in backticks.
fn variables_documented(doc: &str) -> BTreeSet<String> {
    let start = doc
        .find(&format!("\n{SECTION}\n"))
        .unwrap_or_else(|| panic!("docs/configuration.md has no section `{SECTION}`"));
    let section = &doc[start + SECTION.len() + 2..];
    let section = &section[..section.find("\n## ").unwrap_or(section.len())];
    let row = Regex::new(r"(?m)^\|\s*`([A-Z][A-Z0-9_]*)`\s*\|").unwrap();
    row.captures_iter(section)
        .map(|c| c[1].to_string())
        .collect()
}

#[test]
fn every_variable_the_server_reads_is_documented_and_every_documented_one_is_read() {
    let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    sources(&crate_dir.join("src"), &mut files);
    let read = variables_read(&files);
    let doc = std::fs::read_to_string(crate_dir.join("../docs/configuration.md")).unwrap();
    let documented = variables_documented(&doc);

    // The collection itself must work, or the comparison below proves nothing.
    for known in [
        "DATABASE_URL",
        "BIND",
        "LIMIT_COMMANDS",
        "BOT_THINKERS",
        "RUST_LOG",
    ] {
        assert!(
            read.contains(known),
            "the scan of api/src missed {known}: {read:?}"
        );
    }
    let missing: Vec<_> = read.difference(&documented).collect();
    let stale: Vec<_> = documented.difference(&read).collect();
    assert!(
        missing.is_empty(),
        "read by api/src but not in docs/configuration.md's `{SECTION}` table: {missing:?}"
    );
    assert!(
        stale.is_empty(),
        "in docs/configuration.md's `{SECTION}` table but read nowhere in api/src: {stale:?}"
    );
}

#[test]
fn a_helper_that_forwards_its_argument_to_env_var_counts_as_a_reader() {
    let files = vec![(
        PathBuf::from("example.rs"),
        r#"
        fn from_env() {
            let number = |name: &str, default: u64| match env::var(name) { _ => default };
            let seconds = |name: &str, d: u64| number(name, d);
            let a = seconds(
                "SOME_TIMEOUT_SECONDS",
                3,
            );
            let b = std::env::var_os("PLAIN");
            tracing::info!("{}", header("NOT_A_VARIABLE"));
        }
        "#
        .to_string(),
    )];
    let read = variables_read(&files);
    let expected: BTreeSet<String> = ["PLAIN", "SOME_TIMEOUT_SECONDS"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(read, expected);
}
