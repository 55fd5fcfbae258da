//! The checks of an export before its first command: the format and chain format, the kind
//! with its options and seat count, the secret against its commitment, the seats and their
//! client seeds (see `verify.rs`).

use baumeister_domain::fairness::{commitment, from_hex, to_hex, valid_client_seed};
use baumeister_domain::{registry, DomainError, DynGame};

use crate::audit::export::{Export, EXPORT_FORMAT, EXPORT_FORMAT_1};
use crate::audit::verify::{differ, Checks, Found, Randomness};

/// The checks before the first command: the format, the kind, the secret against its
/// commitment, the seats. The game and the randomness, unless checking stops here.
pub(crate) fn check_prelude(
    export: &Export,
    checks: &Checks,
    found: &mut Found,
) -> Option<(&'static dyn DynGame, Randomness)> {
    macro_rules! report {
        ($d:expr) => {{
            if found.report($d) {
                return None;
            }
        }};
    }
    let chains = match export.format.as_str() {
        EXPORT_FORMAT => &[1, 2][..],
        EXPORT_FORMAT_1 => &[1][..],
        _ => &[][..],
    };
    if chains.is_empty() {
        report!(differ(
            "format",
            format!("`format` is `{}`, not `{EXPORT_FORMAT}`", export.format)
        ));
    } else if !chains.contains(&export.chain) || export.chain != checks.chain.format() {
        report!(differ(
            "format",
            format!(
                "chain format {} is not one that `{}` has",
                export.chain, export.format
            )
        ));
    }
    // The kind, the options and the seats exactly as game creation takes them: the options in
    // full (as the set-up used them), the kind's own, for a seat count it allows.
    let game = match registry::validate_new_game(&export.kind, export.seat_count, &export.options) {
        Ok((game, full)) => {
            if full != export.options {
                report!(differ(
                    "format",
                    "`options` are not in full (as the set-up used them)"
                ));
            }
            game
        }
        Err(DomainError::UnknownKind(_)) => {
            found.report(differ("format", format!("no game kind `{}`", export.kind)));
            return None;
        }
        Err(e) => {
            found.report(differ(
                "format",
                format!("the options or the seat count cannot make a game: {e}"),
            ));
            return None;
        }
    };

    // The secret, shown at the end, is the one committed to at the start.
    let mut secret = Vec::new();
    let client_seeds: Vec<String> = export.seats.iter().map(|s| s.client_seed.clone()).collect();
    if checks.fair {
        match from_hex(&export.secret).filter(|s| s.len() == 32) {
            Some(s) => secret = s,
            None => report!(differ(
                "commitment",
                "the secret is not 32 bytes of hexadecimal"
            )),
        }
        if to_hex(&commitment(&secret)) != export.commitment.to_ascii_lowercase() {
            report!(differ(
                "commitment",
                "SHA-256 of the secret is not the commitment: the secret was changed"
            ));
        }
        let seats_in_order = export
            .seats
            .iter()
            .enumerate()
            .all(|(i, s)| s.seat as usize == i && valid_client_seed(&s.client_seed));
        if export.seats.len() != export.seat_count as usize || !seats_in_order {
            report!(differ(
                "format",
                "`seats` must list every seat in order, each with a client seed of 1–64 of A–Z a–z 0–9 _ . -"
            ));
        }
    }
    Some((
        game,
        Randomness {
            secret,
            client_seeds,
        },
    ))
}
