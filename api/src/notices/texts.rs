//! What a notice says to a person, in English or German: a title (a mail's subject, a push's
//! heading), a line, and the link that opens the game. Generic: a game is its kind and number.

use baumeister_storage::Language;
use serde_json::Value;

/// One notice, written out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    pub title: String,
    pub line: String,
    /// Opens the game (or the lobby) in the web client.
    pub url: String,
}

/// The web client's page of a game.
pub fn game_url(public_url: &str, game: i64) -> String {
    format!("{public_url}/#/game/{game}")
}

/// Writes out a notice of `kind` (its body as a webhook gets it).
pub fn write(kind: &str, body: &Value, language: Language, public_url: &str) -> Written {
    let game = body
        .pointer("/game/id")
        .or_else(|| body.pointer("/invitation/game/id"))
        .and_then(Value::as_i64);
    let game_kind = body
        .pointer("/game/kind")
        .or_else(|| body.pointer("/invitation/game/kind"))
        .and_then(Value::as_str)
        .unwrap_or("");
    let n = game.map(|g| g.to_string()).unwrap_or_default();
    let url = match game {
        Some(g) => game_url(public_url, g),
        None => format!("{public_url}/"),
    };
    let deadline = body
        .get("deadline")
        .and_then(Value::as_str)
        .map(|d| d.replace('T', " ").trim_end_matches('Z').to_string() + " UTC")
        .unwrap_or_default();
    let inviter = body
        .pointer("/invitation/invited_by")
        .and_then(Value::as_str)
        .unwrap_or("");
    let (title, line) = match (language, kind) {
        (Language::En, "your_turn") => (
            format!("Your turn in game #{n}"),
            format!("Game #{n} ({game_kind}) waits for your move."),
        ),
        (Language::De, "your_turn") => (
            format!("Du bist dran in Partie #{n}"),
            format!("Partie #{n} ({game_kind}) wartet auf deinen Zug."),
        ),
        (Language::En, "game_started") => (
            format!("Game #{n} has started"),
            format!("All seats of game #{n} ({game_kind}) are taken: the game is on."),
        ),
        (Language::De, "game_started") => (
            format!("Partie #{n} hat begonnen"),
            format!("Alle Plätze von Partie #{n} ({game_kind}) sind besetzt: es geht los."),
        ),
        (Language::En, "game_finished") => (
            format!("Game #{n} is over"),
            format!("Game #{n} ({game_kind}) has ended: see how it went."),
        ),
        (Language::De, "game_finished") => (
            format!("Partie #{n} ist zu Ende"),
            format!("Partie #{n} ({game_kind}) ist beendet: sieh dir das Ergebnis an."),
        ),
        (Language::En, "deadline_soon") => (
            format!("Game #{n}: your time runs out soon"),
            format!("Your time for a move in game #{n} ({game_kind}) runs out at {deadline}."),
        ),
        (Language::De, "deadline_soon") => (
            format!("Partie #{n}: deine Zeit läuft bald ab"),
            format!(
                "Deine Zeit für einen Zug in Partie #{n} ({game_kind}) läuft um {deadline} ab."
            ),
        ),
        (Language::En, "invitation") => (
            format!("{inviter} invites you to a game"),
            format!("{inviter} invites you to game #{n} ({game_kind})."),
        ),
        (Language::De, "invitation") => (
            format!("{inviter} lädt dich zu einer Partie ein"),
            format!("{inviter} lädt dich zu Partie #{n} ({game_kind}) ein."),
        ),
        (Language::En, _) => ("News from Baumeister".into(), String::new()),
        (Language::De, _) => ("Neues von Baumeister".into(), String::new()),
    };
    Written { title, line, url }
}

/// A digest's subject.
pub fn digest_subject(language: Language, count: usize) -> String {
    match language {
        Language::En => format!("Baumeister: {count} pieces of news from your games"),
        Language::De => format!("Baumeister: {count} Neuigkeiten aus deinen Partien"),
    }
}

/// The words around the notices in a mail.
pub struct Frame {
    pub greeting: &'static str,
    pub open: &'static str,
    pub why: &'static str,
    pub settings: &'static str,
    pub unsubscribe: &'static str,
}

pub fn frame(language: Language) -> Frame {
    match language {
        Language::En => Frame {
            greeting: "Hello,",
            open: "Open the game",
            why: "You get this mail because you asked Baumeister for notices about your games.",
            settings: "Choose what you get and how often",
            unsubscribe: "Unsubscribe from all mail",
        },
        Language::De => Frame {
            greeting: "Hallo,",
            open: "Zur Partie",
            why: "Du bekommst diese Mail, weil du bei Baumeister Nachrichten zu deinen Partien bestellt hast.",
            settings: "Wähle, was du bekommst und wie oft",
            unsubscribe: "Keine Mails mehr",
        },
    }
}

/// The confirmation mail: subject and text around the link.
pub fn confirmation(language: Language) -> (&'static str, &'static str, &'static str) {
    match language {
        Language::En => (
            "Confirm your address for Baumeister",
            "Somebody (we hope you) asked Baumeister to send notices about their games to this address. Confirm it within 48 hours by opening this link:",
            "If it was not you, ignore this mail: nothing more is sent.",
        ),
        Language::De => (
            "Bestätige deine Adresse für Baumeister",
            "Jemand (hoffentlich du) möchte Nachrichten zu seinen Partien bei Baumeister an diese Adresse bekommen. Bestätige sie innerhalb von 48 Stunden mit diesem Link:",
            "Warst du es nicht, ignoriere diese Mail: es kommt nichts weiter.",
        ),
    }
}

/// The password reset mail's subject, request (with the account's name and the link's
/// lifetime) and "not you" line.
pub fn password_reset(
    language: Language,
    name: &str,
    minutes: u64,
) -> (&'static str, String, &'static str) {
    match language {
        Language::En => (
            "Reset your Baumeister password",
            format!("Somebody (we hope you) asked to reset the password of the Baumeister account \"{name}\". Choose a new one within {minutes} minutes by opening this link (it works once):"),
            "If it was not you, ignore this mail: your password stays as it is.",
        ),
        Language::De => (
            "Setze dein Baumeister-Passwort zurück",
            format!("Jemand (hoffentlich du) möchte das Passwort des Baumeister-Kontos \"{name}\" zurücksetzen. Wähle innerhalb von {minutes} Minuten ein neues mit diesem Link (er gilt einmal):"),
            "Warst du es nicht, ignoriere diese Mail: dein Passwort bleibt, wie es ist.",
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_kind_is_written_in_both_languages_with_the_games_link() {
        let body = json!({"game": {"id": 12, "kind": "wettstreit"}, "deadline": "2026-01-02T03:04:05.000Z",
                          "invitation": {"invited_by": "ada", "game": {"id": 12, "kind": "wettstreit"}}});
        for kind in [
            "your_turn",
            "game_started",
            "game_finished",
            "deadline_soon",
            "invitation",
        ] {
            let en = write(kind, &body, Language::En, "https://b.example");
            let de = write(kind, &body, Language::De, "https://b.example");
            assert_eq!(en.url, "https://b.example/#/game/12");
            assert!(en.line.contains("#12") && de.line.contains("#12"), "{kind}");
            assert_ne!(en.title, de.title, "{kind}");
        }
        let soon = write("deadline_soon", &body, Language::En, "");
        assert!(
            soon.line.contains("2026-01-02 03:04:05.000 UTC"),
            "{}",
            soon.line
        );
        assert!(write("invitation", &body, Language::De, "")
            .title
            .starts_with("ada "));
    }
}
