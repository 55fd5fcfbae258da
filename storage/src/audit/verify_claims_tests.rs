//! What an export *claims* beside its commands: the options, the seats, the status and the
//! result. A made-up file signed with any key must not pass for a game its commands do not
//! make (an import would show it in the lobby as if it had been played).

use baumeister_domain::registry;
use serde_json::json;

use crate::audit::export::{Export, EXPORT_FORMAT_1};
use crate::audit::offline::random_export;
use crate::audit::trust::Signer;
use crate::audit::verify::verify_export;
use crate::types::Lifecycle;

fn signer() -> Signer {
    Signer::from_seed(&[6; 32])
}

/// A finished game of `kind`, signed.
fn finished(kind: &str) -> Export {
    let game = registry::find(kind).unwrap().info();
    random_export(kind, game.min_seats, 3, 100_000, &signer()).unwrap()
}

/// Signs the export's head again, so that only the claim under test can be refused.
fn resign(export: &mut Export) {
    let hash = baumeister_domain::fairness::from_hex(&export.head.hash).unwrap();
    export.head = signer().sign(&export.game, export.head.version, &hash);
}

#[test]
fn a_game_with_no_commands_cannot_claim_to_have_ended() {
    let mut made_up = finished("burgbaumeister");
    assert_eq!(made_up.status, Lifecycle::Finished);
    made_up.commands.clear();
    made_up.head = signer().sign(&made_up.game, 0, &crate::GENESIS);
    let d = verify_export(&made_up).unwrap_err();
    assert_eq!(d.part, "result", "{d}");
    // Not even as a running game with a winner: version 0 is an open game with no result.
    made_up.status = Lifecycle::Active;
    assert_eq!(verify_export(&made_up).unwrap_err().part, "result");
}

#[test]
fn a_result_its_commands_do_not_produce_is_refused() {
    let mut claimed = finished("wettstreit");
    claimed.result.winners =
        vec![(claimed.result.winners.first().copied().unwrap_or(0) + 1) % claimed.seat_count];
    resign(&mut claimed);
    assert_eq!(verify_export(&claimed).unwrap_err().part, "result");
    let mut claimed = finished("wettstreit");
    claimed.status = Lifecycle::Active;
    resign(&mut claimed);
    assert_eq!(verify_export(&claimed).unwrap_err().part, "result");
}

#[test]
fn options_are_the_kinds_own_and_in_full() {
    for game in registry::all() {
        let info = game.info();
        let mut junk = finished(info.kind);
        junk.options = json!({"junk": "x".repeat(1000)});
        resign(&mut junk);
        let d = verify_export(&junk).unwrap_err();
        assert_eq!(d.part, "format", "{}: {d}", info.kind);
        // Options that parse but are not what the set-up used (not in full) are refused too.
        let mut partial = finished(info.kind);
        partial.options = json!({});
        resign(&mut partial);
        let d = verify_export(&partial).unwrap_err();
        assert_eq!(d.part, "format", "{}: {d}", info.kind);
    }
}

#[test]
fn seat_counts_outside_a_kinds_range_are_refused_and_never_crash() {
    for game in registry::all() {
        let info = game.info();
        for seats in [0u8, 1, info.max_seats + 1, 5, 255] {
            if (info.min_seats..=info.max_seats).contains(&seats) {
                continue;
            }
            let mut export = finished(info.kind);
            export.seat_count = seats;
            resign(&mut export);
            let d = verify_export(&export).unwrap_err();
            assert_eq!(d.part, "format", "{} with {seats} seats: {d}", info.kind);
            // Refused as game creation refuses it, before any seat is looked at.
            assert!(
                d.message.contains("cannot make a game"),
                "{} with {seats} seats: {d}",
                info.kind
            );
        }
    }
}

#[test]
fn the_chain_format_is_the_one_its_export_format_has() {
    // Format 1 exports have only plain chains; a salted chain labelled as one is refused.
    let mut export = finished("mauerbauer");
    export.format = EXPORT_FORMAT_1.into();
    assert_eq!(verify_export(&export).unwrap_err().part, "format");
    // The chain format is what the hashes are: a salted chain read as plain breaks.
    let mut export = finished("mauerbauer");
    export.chain = 1;
    let d = verify_export(&export).unwrap_err();
    assert_eq!(d.part, "chain", "{d}");
    let mut export = finished("mauerbauer");
    export.chain = 3;
    assert_eq!(verify_export(&export).unwrap_err().part, "format");
}

#[test]
fn commands_a_game_cannot_have_are_refused_and_never_crash() {
    // Whatever a file says, verifying it answers: a seat the game does not have, a body that is
    // no command, a command without a seat, a set-up that is not first.
    for game in registry::all() {
        let original = finished(game.info().kind);
        for c in 0..original.commands.len().min(12) {
            for change in [
                |e: &mut Export, c: usize| e.commands[c].seat = Some(255),
                |e: &mut Export, c: usize| e.commands[c].seat = Some(e.seat_count),
                |e: &mut Export, c: usize| e.commands[c].seat = None,
                |e: &mut Export, c: usize| e.commands[c].body = json!({"type": "Setup"}),
                |e: &mut Export, c: usize| e.commands[c].body = json!([[[[1]]]]),
                |e: &mut Export, c: usize| e.commands[c].body = json!({"type": 7, "x": null}),
                |e: &mut Export, c: usize| e.commands[c].events.clear(),
            ] {
                let mut changed = original.clone();
                change(&mut changed, c);
                if changed == original {
                    continue;
                }
                assert!(
                    verify_export(&changed).is_err(),
                    "{} command {c}",
                    game.info().kind
                );
            }
        }
    }
}
