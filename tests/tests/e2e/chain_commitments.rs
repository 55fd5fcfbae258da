//! The signed chain head is shown to everybody while a game runs. Hidden events have little
//! entropy (a card of twenty, 0–30 Taler), so a head over plain hashes gives them away to anyone
//! who hashes each candidate. These tests are that attacker, for every kind: a spectator who
//! keeps the head after every command, reads the public log, and holds a dictionary of every
//! payload the game could have hidden (here: every event of the whole game, the truth included,
//! the strongest dictionary there is). Against a chain of format 1 the attack works (so it is a
//! real attack); against format 2, whose links are salted with the game's secret, it finds
//! nothing, while the same links recomputed with the secret (revealed at the end) match every
//! head (so the attacker's arithmetic is right and only the salt is missing).

use baumeister_domain::fairness::from_hex;
use baumeister_domain::registry;
use baumeister_storage::trust::uid_bytes;
use baumeister_storage::Chain;
use baumeister_tests::serde_json::Value;
use baumeister_tests::steps::game_pairs;
use baumeister_tests::{Pick, TestServer};

/// A head the attacker kept: the hash of event `version`.
struct Kept {
    version: i64,
    hash: Vec<u8>,
}

/// What one game gave the attacker.
#[derive(Debug, Default)]
struct Outcome {
    /// Hidden events attacked.
    attacked: usize,
    /// Hidden events recovered by hashing candidates.
    recovered: usize,
    /// Events hidden from the spectator in the whole game.
    hidden: usize,
}

fn head_of(body: &Value) -> Kept {
    Kept {
        version: body["head"]["version"]
            .as_i64()
            .unwrap_or_else(|| panic!("no head: {body}")),
        hash: from_hex(body["head"]["hash"].as_str().unwrap()).unwrap(),
    }
}

/// Plays `commands` random legal moves in a fresh game of `kind` whose chain has `format`,
/// keeping the head the attacker sees after each (a spectator's, or with `as_seat_0` the first
/// seat's, who wants the others' hands), then attacks every stretch between two heads.
async fn attack(kind: &str, format: i16, commands: usize, as_seat_0: bool) -> Outcome {
    // A game that ends shows everybody everything (and its secret), so there is nothing left
    // to attack: random play that ends within `commands` plays another game.
    for _ in 0..5 {
        if let Some(outcome) = attack_a_running_game(kind, format, commands, as_seat_0).await {
            return outcome;
        }
    }
    panic!("{kind}: five random games in a row ended within {commands} commands");
}

/// A game of `kind` with its fewest seats, chained in `format`, started. Chain format 1 is how
/// games created before format 2 were chained (the migration left them so): set before the
/// set-up, it makes this game one of those. Answers the game and its players' tokens.
async fn started_in_chain_format(s: &TestServer, kind: &str, format: i16) -> (i64, Vec<String>) {
    let info = registry::find(kind).unwrap().info();
    let seats = info.min_seats as usize;
    let names: Vec<String> = (0..seats).map(|i| format!("p{i}")).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let tokens = s.players(&names).await;
    let id = s.open_game(&tokens[0], kind, seats).await;
    s.db()
        .await
        .execute(
            "UPDATE game_fairness SET chain_format = $2 WHERE game_id = $1",
            &[&id, &format],
        )
        .await
        .unwrap();
    for token in &tokens[1..] {
        s.joined(id, token).await;
    }
    (id, tokens)
}

/// [`attack`] on one game; `None` when the game ended before the attack.
async fn attack_a_running_game(
    kind: &str,
    format: i16,
    commands: usize,
    as_seat_0: bool,
) -> Option<Outcome> {
    let s = TestServer::start().await;
    let (id, tokens) = started_in_chain_format(&s, kind, format).await;
    let db = s.db().await;

    let mut kept = vec![Kept {
        version: 0,
        hash: baumeister_storage::GENESIS.to_vec(),
    }];
    let mut pick = Pick::new(7 + format as u64);
    let eyes = as_seat_0.then(|| tokens[0].as_str());
    for _ in 0..commands {
        let game = s.get(&format!("/v1/games/{id}"), eyes).await;
        kept.push(head_of(&game.body));
        if game.body["status"] == "finished" {
            s.finish().await;
            return None;
        }
        let to_act = game.body["to_act"].as_array().unwrap().clone();
        let seat = to_act[pick.below(to_act.len())].as_u64().unwrap() as usize;
        if let Some(r) = s.random_move(id, &tokens[seat], &mut pick).await {
            assert!(r.status == 200 || r.status == 422, "{}", r.body);
        }
    }
    let game = s.get(&format!("/v1/games/{id}"), eyes).await;
    if game.body["status"] == "finished" {
        s.finish().await;
        return None;
    }
    kept.push(head_of(&game.body));
    kept.dedup_by_key(|k| k.version);

    // What the attacker reads: the public log. What it may not know: the stored truth.
    let public: Vec<Value> = s.events(id, eyes).await;
    let public = |version: i64| -> Option<Value> {
        public
            .iter()
            .find(|e| e["version"].as_i64() == Some(version))
            .map(|e| e["event"].clone())
    };
    let truth: Vec<(String, Value)> = game_pairs(
        &db,
        "SELECT type, payload FROM events WHERE game_id = $1 ORDER BY version",
        id,
    )
    .await;
    let row = db
        .query_one(
            "SELECT uid::text, secret FROM game_fairness WHERE game_id = $1",
            &[&id],
        )
        .await
        .unwrap();
    let chain_id = uid_bytes(&row.get::<_, String>(0));
    let secret: Vec<u8> = row.get(1);
    let attacker = Chain::plain(chain_id.clone());
    let with_secret = Chain::of_format(format as u8, chain_id, &secret);
    let dictionary: Vec<&(String, Value)> = truth.iter().collect();

    let mut outcome = Outcome::default();
    let hidden = |version: i64| public(version).as_ref() != Some(&truth[version as usize - 1].1);
    outcome.hidden = (1..=truth.len() as i64).filter(|&v| hidden(v)).count();
    for pair in kept.windows(2) {
        let (from, to) = (&pair[0], &pair[1]);
        let versions: Vec<i64> = (from.version + 1..=to.version).collect();
        // The links recomputed with the secret (as anybody can once it is revealed) reach the
        // head: the attacker's arithmetic is the server's, but for the salt.
        let mut hash = from.hash.clone();
        for &v in &versions {
            let (kind, payload) = &truth[v as usize - 1];
            hash = with_secret.event_hash(&hash, v, kind, payload);
        }
        assert_eq!(
            hash, to.hash,
            "versions {versions:?} recomputed with the secret"
        );

        // Each hidden event is attacked with every other event of the stretch handed to the
        // attacker as it truly is: stronger than any real attacker, and linear to search.
        for target in versions.iter().copied().filter(|&v| hidden(v)) {
            outcome.attacked += 1;
            let found = dictionary.iter().any(|(kind, candidate)| {
                let mut hash = from.hash.clone();
                for &v in &versions {
                    let (kind, payload) = if v == target {
                        (kind, candidate)
                    } else {
                        let (kind, payload) = &truth[v as usize - 1];
                        (kind, payload)
                    };
                    hash = attacker.event_hash(&hash, v, kind, payload);
                }
                hash == to.hash
            });
            if found {
                outcome.recovered += 1;
            }
        }
    }
    s.finish().await;
    Some(outcome)
}

/// Kinds whose log hides something from spectators, with enough commands to see it.
const HIDING: [(&str, usize); 4] = [
    ("burgbaumeister", 40),
    ("wettstreit", 60),
    ("mauerbauer", 40),
    ("space-builder", 40),
];

#[actix_web::test]
async fn a_spectator_holding_every_head_recovers_no_hidden_event_in_any_kind() {
    for (kind, commands) in HIDING {
        for as_seat_0 in [false, true] {
            let salted = attack(kind, 2, commands, as_seat_0).await;
            let who = if as_seat_0 { "seat 0" } else { "a spectator" };
            eprintln!("{kind}, {who}: {salted:?}");
            // A seat sees its own secrets, so it may have nothing hidden in some kinds.
            assert!(as_seat_0 || salted.hidden > 0, "{kind}, {who}: {salted:?}");
            assert_eq!(salted.attacked, salted.hidden, "{kind}, {who}: {salted:?}");
            assert_eq!(salted.recovered, 0, "{kind}, {who}: {salted:?}");
        }
    }
}

#[actix_web::test]
async fn the_same_attack_recovers_hidden_events_from_a_plain_chain() {
    // The control: format 1, as the review found it.
    for (kind, commands) in HIDING {
        let plain = attack(kind, 1, commands, false).await;
        eprintln!("{kind}, plain chain: {plain:?}");
        assert!(plain.hidden > 0, "{kind}: {plain:?}");
        assert_eq!(plain.recovered, plain.hidden, "{kind}: {plain:?}");
    }
}

#[actix_web::test]
async fn carcassonne_logs_nothing_hidden() {
    // Its one secret, the order of the pile, is never stored: each tile is drawn when it is
    // drawn. So its log shows the spectator everything, and the head can hide nothing more.
    let outcome = attack("carcassonne", 2, 30, false).await;
    assert_eq!((outcome.hidden, outcome.recovered), (0, 0), "{outcome:?}");
}
