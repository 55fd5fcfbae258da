//! The binary's command line, as an operator meets it (no database needed).

use std::process::Command;

fn baumeister(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_baumeister"))
        .args(args)
        // Nothing listens there: a command that got as far as the database would fail fast.
        .env("DATABASE_URL", "postgres://nobody@127.0.0.1:9/none")
        .env_remove("JWT_SECRET")
        .output()
        .expect("the binary runs")
}

#[test]
fn help_lists_the_commands() {
    let out = baumeister(&["--help"]);
    assert!(out.status.success());
    let help = String::from_utf8(out.stdout).unwrap();
    for command in ["serve", "rebuild-projections", "auditor", "verify", "chat"] {
        assert!(help.contains(command), "{help}");
    }
    let out = baumeister(&["auditor", "--help"]);
    let help = String::from_utf8(out.stdout).unwrap();
    for action in ["grant", "revoke", "list"] {
        assert!(help.contains(action), "{help}");
    }
    let out = baumeister(&["chat", "remove", "--help"]);
    let help = String::from_utf8(out.stdout).unwrap();
    for option in ["--reason", "--by"] {
        assert!(help.contains(option), "{help}");
    }
}

#[test]
fn help_lists_the_moderation_commands() {
    let out = baumeister(&["--help"]);
    let help = String::from_utf8(out.stdout).unwrap();
    for command in [
        "moderator",
        "suspend",
        "unsuspend",
        "suspensions",
        "reports",
    ] {
        assert!(help.contains(command), "{help}");
    }
    let out = baumeister(&["moderator", "--help"]);
    let help = String::from_utf8(out.stdout).unwrap();
    for action in ["grant", "revoke", "list", "log"] {
        assert!(help.contains(action), "{help}");
    }
    let out = baumeister(&["suspend", "--help"]);
    let help = String::from_utf8(out.stdout).unwrap();
    for option in ["--until", "--reason", "--by", "7d"] {
        assert!(help.contains(option), "{help}");
    }
    for args in [
        &["moderator", "grant"][..],
        &["suspend", "troll", "--reason", "spam"],
        &["suspend", "troll", "--until", "7d"],
        &["unsuspend", "troll"],
        &["reports", "resolve", "7", "--reason", "x"],
        &[
            "reports",
            "resolve",
            "seven",
            "--outcome",
            "act",
            "--reason",
            "x",
        ],
    ] {
        let out = baumeister(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
    }
}

#[test]
fn unknown_commands_and_arguments_are_refused() {
    for args in [
        &["serv"][..],
        &["--port", "80"],
        &["auditor", "grant"],
        &["auditor", "grant", "a", "b"],
        &["serve", "extra"],
        &["chat", "remove", "7"],
        &["chat", "remove", "seven", "--reason", "spam"],
    ] {
        let out = baumeister(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!out.stderr.is_empty());
    }
}

#[test]
fn a_short_jwt_secret_is_refused_at_start_up() {
    let out = Command::new(env!("CARGO_BIN_EXE_baumeister"))
        .env("JWT_SECRET", "too short")
        .env("DATABASE_URL", "postgres://nobody@127.0.0.1:9/none")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("JWT_SECRET has 9 bytes"), "{said}");
}

#[test]
fn verify_checks_an_export_offline_and_names_the_first_difference() {
    use baumeister_storage::offline::random_export;
    use baumeister_storage::Signer;
    let game = baumeister_domain::registry::all()[0].info();
    let export = random_export(game.kind, game.min_seats, 3, 80, &Signer::random()).unwrap();
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    let file = dir.join(format!("export-{}.json", std::process::id()));
    std::fs::write(&file, serde_json::to_vec(&export).unwrap()).unwrap();
    // No database answers (see `baumeister`): verifying needs none.
    let out = baumeister(&["verify", file.to_str().unwrap()]);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{said} {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(said.starts_with("verified: "), "{said}");

    let mut changed = export.clone();
    let seed = &mut changed.commands[1].seed;
    let flipped = if seed.starts_with('0') { "1" } else { "0" };
    seed.replace_range(0..1, flipped);
    std::fs::write(&file, serde_json::to_vec(&changed).unwrap()).unwrap();
    let out = baumeister(&["verify", file.to_str().unwrap()]);
    let said = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(said.starts_with("differs: seed: "), "{said}");

    std::fs::write(&file, b"{\"not\": \"an export\"}").unwrap();
    let out = baumeister(&["verify", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));

    // Whatever the file claims, verify answers (exit 1), never crashes (exit 101): seat counts
    // no game has (Mauerbauer with 0 seats once panicked), nesting far deeper than any export.
    let mauerbauer = random_export("mauerbauer", 2, 3, 80, &Signer::random()).unwrap();
    for seats in [0u8, 1, 5, 255] {
        let mut changed = mauerbauer.clone();
        changed.seat_count = seats;
        std::fs::write(&file, serde_json::to_vec(&changed).unwrap()).unwrap();
        let out = baumeister(&["verify", file.to_str().unwrap()]);
        let said = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{seats} seats: {said}");
        assert!(
            said.starts_with("differs: format: "),
            "{seats} seats: {said}"
        );
    }
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    std::fs::write(&file, deep).unwrap();
    let out = baumeister(&["verify", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1));
    let _ = std::fs::remove_file(&file);
}
