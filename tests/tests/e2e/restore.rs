//! A restore that is proven. A server holds games of every kind in every state (waiting,
//! running, finished; Carcassonne with both expansions; a take-back; an import from another
//! server; a private game with an invitation still pending; chat with a removed message; rated
//! games and their ratings). `scripts/backup` dumps its database while it serves;
//! `scripts/restore` puts the dump into a fresh database (and refuses a database that is not
//! empty, and a dump that does not match its checksum); a new server with the same keys serves
//! the restored database. Then every game's audit passes, every signed head verifies under the
//! same key, every finished game's export verifies offline (`baumeister verify`), every read of
//! every viewer answers exactly what it answered before the backup, and play goes on: a legal
//! move on each running game, the waiting games filled, a new account and game whose ids follow
//! the old ones (the sequences were restored).

use std::collections::BTreeMap;
use std::future::Future;
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::process::{Command, Output};
use std::time::Instant;

use baumeister_api::cli::{self, ChatAction};
use baumeister_api::config::SigningKeySource;
use baumeister_api::Config;
use baumeister_domain::registry;
use baumeister_storage::trust::verify_head;
use baumeister_storage::{SignedHead, Signer};
use baumeister_tests::random_play::random_step;
use baumeister_tests::serde_json::{self, json, Value};
use baumeister_tests::{all_at_once, database_url, drop_database, Pick, TestServer};

/// The signing key of the server backed up, and of the one serving the restore.
const SIGNING_KEY: [u8; 32] = [0x42; 32];
/// The other server's, whose export is imported.
const OTHER_KEY: [u8; 32] = [0x17; 32];

fn configured(c: &mut Config, key: [u8; 32]) {
    c.limits.commands = None;
    c.limits.expensive_reads = None;
    c.signing_key = SigningKeySource::Seed(key);
}

/// A game of the server backed up.
struct Game {
    id: i64,
    what: String,
    status: &'static str,
    /// Its players' tokens in seat order (none for the imported game).
    seats: Vec<String>,
    /// How many seats it has.
    seat_count: usize,
}

/// Runs one of `scripts/` on database `db`.
fn script(name: &str, db: &str, args: &[&Path]) -> Output {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../scripts")
        .join(name);
    Command::new(path)
        .args(args)
        .env("DATABASE_URL", database_url(db))
        .output()
        .unwrap_or_else(|e| panic!("scripts/{name} runs: {e}"))
}

fn said(output: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

fn head(value: &Value) -> SignedHead {
    serde_json::from_value(value.clone()).unwrap_or_else(|_| panic!("a signed head: {value}"))
}

/// Plays random legal moves until the mover may take its command back, and takes it back.
async fn take_one_back(s: &TestServer, id: i64, tokens: &[String]) {
    let mut pick = Pick::new(5);
    for _ in 0..300 {
        let (seat, chosen, r) = random_step(s, id, tokens, &mut pick)
            .await
            .expect("the game runs");
        assert_eq!(r.status, 200, "{chosen}: {}", r.body);
        let moves = s.moves(id, &tokens[seat]).await;
        if moves.body["can_undo"] == true {
            let r = s
                .post(
                    &format!("/v1/games/{id}/undo"),
                    Some(&tokens[seat]),
                    &json!({}),
                )
                .await;
            assert_eq!(r.status, 200, "{}", r.body);
            return;
        }
    }
    panic!("no command of game {id} could be taken back");
}

/// Every read a viewer makes, keyed by what and who: status and body. What is the same for
/// everybody who may see it (keys, profiles, replays, exports) is read by nobody and by the
/// auditor (who sees the private games) only.
async fn reads(
    s: &TestServer,
    games: &[Game],
    viewers: &[(&str, Option<&str>)],
    kinds: &[&str],
) -> BTreeMap<String, (u16, Value)> {
    let mut seen = BTreeMap::new();
    for (who, token) in viewers {
        let alike = ["nobody", "ines"].contains(who);
        let mut paths = vec!["/v1/games?limit=100".to_string()];
        if token.is_some() {
            paths.push("/v1/me/games".into());
            paths.push("/v1/me/invitations".into());
        }
        if alike {
            paths.extend(
                [
                    "/v1/keys",
                    "/v1/push/key",
                    "/v1/players/anna",
                    "/v1/players/bert",
                ]
                .map(String::from),
            );
            for kind in kinds {
                paths.push(format!("/v1/kinds/{kind}/leaderboard"));
            }
        }
        for game in games {
            let id = game.id;
            paths.extend([
                format!("/v1/games/{id}"),
                format!("/v1/games/{id}/events?limit=1000"),
                format!("/v1/games/{id}/moves"),
                format!("/v1/games/{id}/chat"),
            ]);
            if token.is_some() {
                paths.push(format!("/v1/games/{id}/chat?channel=spectators"));
                paths.push(format!("/v1/games/{id}/invitations"));
            }
            if alike {
                paths.push(format!("/v1/games/{id}/replay?at=1"));
                paths.push(format!("/v1/games/{id}/rematch"));
                if game.status == "finished" {
                    paths.push(format!("/v1/games/{id}/export"));
                }
            }
        }
        // A few at a time: the answers do not depend on the order, and the time does.
        for chunk in paths.chunks(16) {
            let answers = all_at_once(chunk.iter().map(|path| s.get(path, *token))).await;
            for (path, r) in chunk.iter().zip(answers) {
                let mut body = r.body;
                // A refusal names the request it answers: that differs from one read to the next.
                if let Some(problem) = body.as_object_mut() {
                    problem.remove("request_id");
                }
                seen.insert(format!("{who} GET {path}"), (r.status, body));
            }
        }
    }
    seen
}

/// Plays game `id` to its end by random legal moves of the seats it waits for (`seated` in
/// seat order). Each command asks for the mover's next moves in its answer (`Prefer:
/// return=representation`), so a seat reads its moves only when others have moved since.
async fn play_out(s: &TestServer, id: i64, seated: &[String], seed: u64) {
    let mut pick = Pick::new(seed);
    let game = s.get(&format!("/v1/games/{id}"), None).await;
    let mut version = game.version();
    let mut to_act = game.body["to_act"].as_array().unwrap().clone();
    let mut known: Vec<Option<(i64, Vec<Value>)>> = vec![None; seated.len()];
    for _ in 0..5000 {
        if to_act.is_empty() {
            let game = s.get(&format!("/v1/games/{id}"), None).await;
            assert_eq!(game.body["status"], "finished", "{}", game.body);
            return;
        }
        let seat = to_act[pick.below(to_act.len())].as_u64().unwrap() as usize;
        let moves = match &known[seat] {
            Some((at, moves)) if *at == version => moves.clone(),
            _ => {
                let r = s.moves(id, &seated[seat]).await;
                r.body["moves"].as_array().unwrap().clone()
            }
        };
        let chosen = &moves[pick.below(moves.len())];
        let request = s
            .request(
                "POST",
                &format!("/v1/games/{id}/commands"),
                Some(&seated[seat]),
            )
            .insert_header(("Content-Type", "application/json"))
            .insert_header(("Prefer", "return=representation"));
        let r = s
            .send(request, Some(serde_json::to_vec(chosen).unwrap()))
            .await;
        assert_eq!(r.status, 200, "{chosen}: {}", r.body);
        version = r.version();
        to_act = r.body["to_act"].as_array().unwrap().clone();
        let next = r.body["board"]["moves"].as_array().unwrap().clone();
        known[seat] = Some((version, next));
    }
    panic!("game {id} did not end");
}

/// A running game of `kind` for `seated`, its first `steps` random commands played.
async fn run(s: &TestServer, id: i64, seated: &[String], steps: usize, seed: u64) {
    let mut pick = Pick::new(seed);
    for _ in 0..steps {
        let (_, chosen, r) = random_step(s, id, seated, &mut pick).await.unwrap();
        assert_eq!(r.status, 200, "{chosen}: {}", r.body);
    }
}

/// Ends a Space Builder game with `deadline_minutes: 1` by its deadlines alone: each minute
/// the server stops the round's builders, or releases the winner's lowest card.
async fn end_by_deadlines(s: &TestServer, id: i64) {
    for _ in 0..100 {
        let game = s.get(&format!("/v1/games/{id}"), None).await;
        if game.body["status"] == "finished" {
            return;
        }
        s.store.advance_clock(61_000);
        s.store.sweep_once().await.unwrap();
    }
    panic!("Space Builder game {id} did not end by its deadlines");
}

/// The games of one kind each, made by `games_of_every_kind`, and how they are to be played.
struct EveryKind {
    games: Vec<Game>,
    kinds: Vec<&'static str>,
    /// Games to play to their end: id, seated players, seed.
    to_play: Vec<(i64, Vec<String>, u64)>,
    /// Games to play a few commands of.
    to_run: Vec<(i64, Vec<String>, u64)>,
    /// The Space Builder game its deadlines end.
    by_deadlines: i64,
}

/// Every kind waiting for a player, running, and finished (rated by default), made but not
/// played yet.
async fn games_of_every_kind(s: &TestServer, tokens: &[String]) -> EveryKind {
    let anna = &tokens[0];
    let mut every = EveryKind {
        games: Vec::new(),
        kinds: Vec::new(),
        to_play: Vec::new(),
        to_run: Vec::new(),
        by_deadlines: 0,
    };
    for (k, game) in registry::all().iter().enumerate() {
        let kind = game.kind();
        every.kinds.push(kind);
        let seat_count = game.info().min_seats as usize;
        let seated = tokens[..seat_count].to_vec();
        let options = match kind {
            "carcassonne" => json!({"mage_and_witch": true, "gold_mines": true}),
            _ => json!({}),
        };
        let waiting = s
            .create_game(
                anna,
                &json!({"kind": kind, "seats": seat_count, "options": options}),
            )
            .await;
        every.games.push(Game {
            id: waiting,
            what: format!("{kind} waiting"),
            status: "open",
            seats: vec![anna.clone()],
            seat_count,
        });
        let running = s.game(kind, options.clone(), &seated).await;
        every.to_run.push((running, seated.clone(), k as u64));
        every.games.push(Game {
            id: running,
            what: format!("{kind} running"),
            status: "active",
            seats: seated.clone(),
            seat_count,
        });
        let finished = if kind == "space-builder" {
            // Ended by its deadlines: random building takes a minute to end a game.
            let id = s.game(kind, json!({"deadline_minutes": 1}), &seated).await;
            every.by_deadlines = id;
            id
        } else {
            let id = s.game(kind, options, &seated).await;
            every.to_play.push((id, seated.clone(), 100 + k as u64));
            id
        };
        every.games.push(Game {
            id: finished,
            what: format!("{kind} finished"),
            status: "finished",
            seats: seated,
            seat_count,
        });
    }
    every
}

/// A private burgbaumeister game of the two `both`: the first invited the second, who accepted.
async fn a_private_game_running(s: &TestServer, both: &[String]) -> i64 {
    let private = s
        .create_game(
            &both[0],
            &json!({"kind": "burgbaumeister", "seats": 2, "visibility": "private"}),
        )
        .await;
    let r = s
        .post(
            &format!("/v1/games/{private}/invitations"),
            Some(&both[0]),
            &json!({"player": "bert"}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let invitation = r.body["invitation"]["id"].as_i64().unwrap();
    let r = s
        .answer_invitation(invitation, "accept", &both[1], &json!({}))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    private
}

/// Plays all at once: the other server's game (`elsewhere`, of `pair`) to its end, a take-back
/// on `undone`, every game of `to_play` to its end and six commands of every one of `to_run`.
/// Then the clock moves on for every game (only now that nothing else is played) until the
/// Space Builder game ends by its deadlines.
async fn play_them_all(
    s: &TestServer,
    every: &EveryKind,
    (other, elsewhere, pair): (&TestServer, i64, &[String]),
    (undone, both): (i64, &[String]),
) {
    let t = Instant::now();
    let mut plays: Vec<Pin<Box<dyn Future<Output = ()> + '_>>> = vec![
        Box::pin(async move {
            play_out(other, elsewhere, pair, 3).await;
        }),
        Box::pin(take_one_back(s, undone, both)),
    ];
    for (id, seated, seed) in &every.to_play {
        plays.push(Box::pin(async move {
            play_out(s, *id, seated, *seed).await;
        }));
    }
    for (id, seated, seed) in &every.to_run {
        plays.push(Box::pin(run(s, *id, seated, 6, *seed)));
    }
    all_at_once(plays.into_iter()).await;
    end_by_deadlines(s, every.by_deadlines).await;
    eprintln!("the games played in {:?}", t.elapsed());
}

/// Chat on both channels, on the private game too, and a message the operator removed.
async fn chat_with_a_removed_message(s: &TestServer, tokens: &[String], private: i64, at: i64) {
    let (anna, bert, clara) = (&tokens[0], &tokens[1], &tokens[3]);
    let mut messages = Vec::new();
    for (game, token, channel, text) in [
        (private, anna, "table", "only we read this"),
        (at, anna, "table", "good luck"),
        (at, bert, "table", "you too"),
        (at, clara, "spectators", "nice opening"),
        (at, clara, "spectators", "something rude"),
    ] {
        let r = s
            .post(
                &format!("/v1/games/{game}/chat"),
                Some(token),
                &json!({"channel": channel, "text": text}),
            )
            .await;
        assert_eq!(r.status, 201, "{}", r.body);
        messages.push(r.body["id"].as_i64().unwrap());
    }
    let remove = ChatAction::Remove {
        id: *messages.last().unwrap(),
        reason: "rude".into(),
        by: Some("operator".into()),
    };
    cli::chat(&s.store, remove).await.unwrap();
}

/// A private mauerbauer game of anna's, waiting, with an invitation clara has not answered
/// yet: the game's id and the invitation's.
async fn a_private_game_waiting_for_an_answer(s: &TestServer, anna: &str) -> (i64, i64) {
    let invited = s
        .create_game(
            anna,
            &json!({"kind": "mauerbauer", "seats": 2, "visibility": "private"}),
        )
        .await;
    let r = s
        .post(
            &format!("/v1/games/{invited}/invitations"),
            Some(anna),
            &json!({"player": "clara"}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    (invited, r.body["invitation"]["id"].as_i64().unwrap())
}

/// The other server's game `elsewhere`, exported there (then the other server stops) and
/// imported by the auditor `ines`.
async fn the_other_servers_game_imported(
    other: TestServer,
    elsewhere: i64,
    s: &TestServer,
    ines: &str,
) -> Game {
    let exported = other
        .get(&format!("/v1/games/{elsewhere}/export"), None)
        .await;
    assert_eq!(exported.status, 200, "{}", exported.body);
    other.finish().await;
    let r = s.post("/v1/games/import", Some(ines), &exported.body).await;
    assert_eq!(r.status, 201, "{}", r.body);
    Game {
        id: r.body["id"].as_i64().unwrap(),
        what: "imported carcassonne".into(),
        status: "finished",
        seats: Vec::new(),
        seat_count: 2,
    }
}

/// What the server backed up holds.
struct Served {
    games: Vec<Game>,
    kinds: Vec<&'static str>,
    /// anna, bert, carl and clara.
    tokens: Vec<String>,
    /// An auditor: sees the private games.
    ines: String,
    /// The game with chat on both channels.
    chat_at: i64,
    /// The game with a take-back.
    undone: i64,
    /// The private game waiting, and clara's invitation to it.
    invited: i64,
    pending: i64,
}

impl Served {
    /// Everybody whose reads are compared: nobody, three players, the auditor.
    fn viewers(&self) -> [(&'static str, Option<&str>); 5] {
        [
            ("nobody", None),
            ("anna", Some(self.tokens[0].as_str())),
            ("bert", Some(self.tokens[1].as_str())),
            ("clara", Some(self.tokens[3].as_str())),
            ("ines", Some(self.ines.as_str())),
        ]
    }
}

/// The key of the other server, whose game is imported and which the server backed up trusts.
fn other_key() -> String {
    Signer::from_seed(&OTHER_KEY).public_key()
}

/// A server holding games of every kind in every state, a take-back, private games (one
/// waiting for an invitation's answer), chat with a removed message, and another server's game
/// imported.
async fn given_games_of_every_kind_in_every_state() -> (TestServer, Served) {
    let other = TestServer::start_with(|c| configured(c, OTHER_KEY)).await;
    let s = TestServer::start_with(|c| {
        configured(c, SIGNING_KEY);
        c.trusted_keys = vec![other_key()];
    })
    .await;
    let pair = other.players(&["olga", "otto"]).await;
    let elsewhere = other.game("carcassonne", json!({}), &pair).await;

    let tokens = s.players(&["anna", "bert", "carl", "clara"]).await;
    let ines = s.auditor("ines").await;
    let both = vec![tokens[0].clone(), tokens[1].clone()];
    let mut every = games_of_every_kind(&s, &tokens).await;
    let undone = s.game("carcassonne", json!({}), &both).await;
    every.games.push(Game {
        id: undone,
        what: "carcassonne with a take-back".into(),
        status: "active",
        seats: both.clone(),
        seat_count: 2,
    });
    let private = a_private_game_running(&s, &both).await;
    every.to_run.push((private, both.clone(), 9));
    every.games.push(Game {
        id: private,
        what: "private burgbaumeister".into(),
        status: "active",
        seats: both.clone(),
        seat_count: 2,
    });
    play_them_all(&s, &every, (&other, elsewhere, &pair), (undone, &both)).await;

    let chat_at = every.games[1].id;
    chat_with_a_removed_message(&s, &tokens, private, chat_at).await;
    let (invited, pending) = a_private_game_waiting_for_an_answer(&s, &tokens[0]).await;
    every.games.push(Game {
        id: invited,
        what: "private mauerbauer waiting".into(),
        status: "open",
        seats: vec![tokens[0].clone()],
        seat_count: 2,
    });
    let imported = the_other_servers_game_imported(other, elsewhere, &s, &ines).await;
    every.games.push(imported);
    let served = Served {
        games: every.games,
        kinds: every.kinds,
        tokens,
        ines,
        chat_at,
        undone,
        invited,
        pending,
    };
    (s, served)
}

/// What is backed up is really there (as read `before`): each game in its state, ratings of
/// every kind, the take-back, the removed message, the import's origin, the signing key.
fn what_is_backed_up_is_really_there(served: &Served, before: &BTreeMap<String, (u16, Value)>) {
    for game in &served.games {
        let read = format!("ines GET /v1/games/{}", game.id);
        assert_eq!(before[&read].1["status"], game.status, "{}", game.what);
    }
    let rated = before["nobody GET /v1/players/anna"].1["kinds"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|k| !k["rating"].is_null())
        .count();
    assert_eq!(
        rated,
        served.kinds.len(),
        "{}",
        before["nobody GET /v1/players/anna"].1
    );
    let undone = served.undone;
    let log = &before[&format!("anna GET /v1/games/{undone}/events?limit=1000")].1;
    assert!(
        log["events"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e["taken_back"] == true),
        "{log}"
    );
    let chat_at = served.chat_at;
    let chat = &before[&format!("clara GET /v1/games/{chat_at}/chat?channel=spectators")].1;
    assert!(
        chat["messages"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["removed"] == true),
        "{chat}"
    );
    let imported = served.games.last().unwrap().id;
    let shown = &before[&format!("nobody GET /v1/games/{imported}")].1;
    assert_eq!(
        shown["fairness"]["origin_key"],
        json!(other_key()),
        "{shown}"
    );

    let public_key = Signer::from_seed(&SIGNING_KEY).public_key();
    assert_eq!(
        before["nobody GET /v1/keys"].1["keys"][0]["key"],
        json!(public_key)
    );
}

/// The last id of each kind of row backed up.
struct LastIds {
    game: i64,
    account: i64,
    message: i64,
    position: i64,
}

async fn last_ids(s: &TestServer) -> LastIds {
    let row = s
        .db()
        .await
        .query_one(
            "SELECT (SELECT max(id) FROM games), (SELECT max(id) FROM accounts),
                    (SELECT max(id) FROM chat_messages), (SELECT max(position) FROM events)",
            &[],
        )
        .await
        .unwrap();
    LastIds {
        game: row.get(0),
        account: row.get(1),
        message: row.get(2),
        position: row.get(3),
    }
}

/// The backup into `dir`, taken while the server serves: the dump, with its manifest.
async fn a_backup_taken_while_serving(s: &TestServer, dir: &Path) -> PathBuf {
    let dump = dir.join("games.dump");
    let t = Instant::now();
    let backup = script("backup", &s.db, &[&dump]);
    assert!(backup.status.success(), "{}", said(&backup));
    eprintln!("backup: {:?}", t.elapsed());
    let manifest: Value =
        serde_json::from_slice(&std::fs::read(dir.join("games.dump.manifest.json")).unwrap())
            .unwrap();
    assert_eq!(manifest["format"], "baumeister-backup/1");
    assert_eq!(manifest["rows"]["games"], json!(last_game_count(s).await));
    assert!(manifest["migration_version"].as_i64().unwrap() > 0);
    dump
}

/// The restore refuses a target that is not empty (the live database itself) and a damaged
/// dump. Returns the database the damaged dump was refused for, to drop.
fn a_live_database_and_a_damaged_dump_are_refused(s: &TestServer, dir: &Path) -> String {
    let dump = dir.join("games.dump");
    let refused = script("restore", &s.db, &[&dump]);
    assert_eq!(refused.status.code(), Some(1), "{}", said(&refused));
    assert!(
        said(&refused).contains("is not empty"),
        "{}",
        said(&refused)
    );
    let damaged = dir.join("damaged.dump");
    let mut bytes = std::fs::read(&dump).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 1;
    std::fs::write(&damaged, bytes).unwrap();
    let sum = std::fs::read_to_string(dir.join("games.dump.sha256")).unwrap();
    std::fs::write(
        dir.join("damaged.dump.sha256"),
        sum.replace("games.dump", "damaged.dump"),
    )
    .unwrap();
    std::fs::copy(
        dir.join("games.dump.manifest.json"),
        dir.join("damaged.dump.manifest.json"),
    )
    .unwrap();
    let never = format!("{}_never", s.db);
    let refused = script("restore", &never, &[&damaged]);
    assert_eq!(refused.status.code(), Some(1), "{}", said(&refused));
    assert!(
        said(&refused).contains("does not match its checksum"),
        "{}",
        said(&refused)
    );
    never
}

/// The restore of `dump` into a fresh database; then the server backed up is gone, and a new
/// one serves the restored database with the same keys: signing key, JWT secret (the test
/// servers share it: the old tokens still work), VAPID key, trusted keys.
async fn restored_into_a_fresh_database(s: TestServer, dump: &Path) -> TestServer {
    let restored_db = format!("{}_restored", s.db);
    drop_database(&restored_db).await;
    let t = Instant::now();
    let restore = script("restore", &restored_db, &[dump]);
    assert!(restore.status.success(), "{}", said(&restore));
    assert!(said(&restore).contains("verified"), "{}", said(&restore));
    eprintln!("restore: {:?}", t.elapsed());
    let vapid = s.config.notices.vapid.clone();
    // The deadlines moved the first server's clock on; the new one's starts no earlier.
    let clock = s.store.now_ms();
    s.finish().await;

    let r = TestServer::on_database(&restored_db, |c| {
        configured(c, SIGNING_KEY);
        c.trusted_keys = vec![other_key()];
        c.notices.vapid = vapid;
    })
    .await;
    r.store.advance_clock((clock - r.store.now_ms()).max(0));
    r
}

/// Every read answers `after` the restore exactly what it answered `before` the backup; and
/// the projections derived from the events again are the ones restored.
async fn every_read_answers_as_before(
    r: &TestServer,
    viewers: &[(&str, Option<&str>)],
    before: &BTreeMap<String, (u16, Value)>,
    after: &BTreeMap<String, (u16, Value)>,
) {
    assert_eq!(before.len(), after.len());
    for (read, was) in before {
        assert_eq!(Some(was), after.get(read), "{read} after the restore");
    }
    r.store.rebuild_all_projections().await.unwrap();
    for (who, token) in viewers {
        for path in ["/v1/games?limit=100", "/v1/me/games"] {
            let read = format!("{who} GET {path}");
            if let Some(was) = before.get(&read) {
                let now = r.get(path, *token).await;
                assert_eq!((now.status, &now.body), (was.0, &was.1), "{read} rebuilt");
            }
        }
    }
}

/// Every game's audit passes on the restored server.
async fn every_games_audit_passes(r: &TestServer, served: &Served) {
    let audits = all_at_once(
        served
            .games
            .iter()
            .map(|game| r.get(&format!("/v1/games/{}/audit", game.id), Some(&served.ines))),
    )
    .await;
    for (game, audit) in served.games.iter().zip(audits) {
        assert_eq!(audit.status, 200, "{}: {}", game.what, audit.body);
        for check in [
            "chain_intact",
            "decisions_reproduced",
            "randomness_committed",
            "snapshots_match",
        ] {
            assert_eq!(audit.body[check], true, "{}: {}", game.what, audit.body);
        }
        assert_eq!(audit.body["problems"], json!([]), "{}", game.what);
    }
}

/// Every head any viewer was shown `after` the restore verifies, signed with the same key as
/// before (the imported game's with the other server's); private games are still hidden from
/// outsiders.
fn every_shown_head_verifies_under_the_same_key(
    served: &Served,
    after: &BTreeMap<String, (u16, Value)>,
) {
    let (public_key, other_key) = (Signer::from_seed(&SIGNING_KEY).public_key(), other_key());
    for game in &served.games {
        let id = game.id;
        let key = if game.what.starts_with("imported") {
            &other_key
        } else {
            &public_key
        };
        let mut shown = Vec::new();
        for (who, _) in &served.viewers() {
            for path in [
                format!("/v1/games/{id}"),
                format!("/v1/games/{id}/moves"),
                format!("/v1/games/{id}/events?limit=1000"),
            ] {
                let (status, body) = &after[&format!("{who} GET {path}")];
                if game.what.starts_with("private") && *who == "nobody" {
                    assert_eq!(*status, 404, "{} for {who}", game.what);
                }
                if *status == 404 {
                    continue;
                }
                assert_eq!(*status, 200, "{path} for {who}: {body}");
                shown.push(head(&body["head"]));
            }
        }
        // Every read of a game names the head of its version: one to verify (a signature
        // check is slow in a debug build).
        shown.dedup();
        assert_eq!(shown.len(), 1, "{}: {shown:?}", game.what);
        verify_head(&shown[0]).unwrap_or_else(|e| panic!("{}: {e:?}", game.what));
        assert_eq!(&shown[0].key, key, "{}", game.what);
    }
}

/// Every finished game's export (as read `after` the restore) verifies offline, as
/// `baumeister verify FILE` checks it; the files are written into `dir`.
fn every_finished_games_export_verifies_offline(
    games: &[Game],
    after: &BTreeMap<String, (u16, Value)>,
    dir: &Path,
) {
    for game in games.iter().filter(|g| g.status == "finished") {
        let id = game.id;
        let (status, body) = &after[&format!("nobody GET /v1/games/{id}/export")];
        assert_eq!(*status, 200, "{}: {body}", game.what);
        let file = dir.join(format!("export-{id}.json"));
        std::fs::write(&file, serde_json::to_vec(body).unwrap()).unwrap();
        cli::verify(&file).unwrap_or_else(|e| panic!("{}: {e}", game.what));
    }
}

/// Play goes on: a legal move on every running game, every waiting game filled.
async fn play_goes_on(r: &TestServer, served: &Served) {
    for game in served.games.iter().filter(|g| g.status == "active") {
        let id = game.id;
        let shown = r
            .get(&format!("/v1/games/{id}"), Some(&game.seats[0]))
            .await;
        let version = shown.body["version"].as_i64().unwrap();
        let seat = shown.body["to_act"][0].as_u64().unwrap() as usize;
        let moved = r.first_move(id, &game.seats[seat]).await;
        assert!(moved.version() > version, "{}", game.what);
        verify_head(&head(&moved.body["head"])).unwrap();
        let audit = r
            .get(&format!("/v1/games/{id}/audit"), Some(&served.ines))
            .await;
        assert_eq!(
            audit.body["chain_intact"], true,
            "{}: {}",
            game.what, audit.body
        );
        assert_eq!(audit.body["decisions_reproduced"], true, "{}", game.what);
    }
    let clara = &served.tokens[3];
    for game in served.games.iter().filter(|g| g.status == "open") {
        let id = game.id;
        let joined = if id == served.invited {
            r.answer_invitation(served.pending, "accept", clara, &json!({}))
                .await
        } else {
            let mut joined = None;
            for token in &served.tokens[1..game.seat_count] {
                joined = Some(r.join(id, token).await);
            }
            joined.unwrap()
        };
        assert_eq!(joined.status, 200, "{}: {}", game.what, joined.body);
        assert_eq!(joined.body["status"], "active", "{}", game.what);
    }
}

/// New rows take ids after the restored ones (`last`): the sequences came along.
async fn new_rows_take_ids_after_the_restored_ones(
    r: &TestServer,
    served: &Served,
    last: &LastIds,
) {
    let dora = r.player("dora").await;
    let new_game = r.open_game(&dora, "mauerbauer", 2).await;
    assert!(new_game > last.game, "{new_game} after {}", last.game);
    let said_again = r
        .post(
            &format!("/v1/games/{}/chat", served.chat_at),
            Some(&served.tokens[0]),
            &json!({"channel": "table", "text": "still here"}),
        )
        .await;
    assert_eq!(said_again.status, 201, "{}", said_again.body);
    assert!(said_again.body["id"].as_i64().unwrap() > last.message);
    let db = r.db().await;
    let row = db
        .query_one(
            "SELECT (SELECT id FROM accounts WHERE name = 'dora'),
                    (SELECT min(position) FROM events WHERE position > $1)",
            &[&last.position],
        )
        .await
        .unwrap();
    assert!(row.get::<_, i64>(0) > last.account);
    assert!(
        row.get::<_, Option<i64>>(1).is_some(),
        "new events after the old ones"
    );
}

/// One drill, as the operator runs it: the set-up (every kind played to every state) takes
/// longer than all the checks together, so they share it, each a named step.
#[actix_web::test]
async fn a_backup_restored_into_a_fresh_database_is_served_whole_and_play_goes_on() {
    let started = Instant::now();
    let (s, served) = given_games_of_every_kind_in_every_state().await;
    eprintln!(
        "{} games made in {:?}",
        served.games.len(),
        started.elapsed()
    );
    let viewers = served.viewers();
    let before = reads(&s, &served.games, &viewers, &served.kinds).await;
    what_is_backed_up_is_really_there(&served, &before);
    let last = last_ids(&s).await;

    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "restore-{}-{}",
        std::process::id(),
        s.db
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let dump = a_backup_taken_while_serving(&s, &dir).await;
    let never = a_live_database_and_a_damaged_dump_are_refused(&s, &dir);
    let r = restored_into_a_fresh_database(s, &dump).await;

    let t = Instant::now();
    let after = reads(&r, &served.games, &viewers, &served.kinds).await;
    eprintln!("{} reads again in {:?}", after.len(), t.elapsed());
    every_read_answers_as_before(&r, &viewers, &before, &after).await;
    every_games_audit_passes(&r, &served).await;
    eprintln!("audited at {:?}", started.elapsed());
    every_shown_head_verifies_under_the_same_key(&served, &after);
    every_finished_games_export_verifies_offline(&served.games, &after, &dir);
    eprintln!("audited and verified at {:?}", started.elapsed());
    play_goes_on(&r, &served).await;
    new_rows_take_ids_after_the_restored_ones(&r, &served, &last).await;

    r.finish().await;
    drop_database(&never).await;
    std::fs::remove_dir_all(&dir).unwrap();
    eprintln!("the whole drill took {:?}", started.elapsed());
}

async fn last_game_count(s: &TestServer) -> i64 {
    s.db()
        .await
        .query_one("SELECT count(*) FROM games", &[])
        .await
        .unwrap()
        .get(0)
}

#[actix_web::test]
async fn a_backup_taken_while_commands_are_written_restores_one_moment_of_them() {
    let s = TestServer::start_with(|c| configured(c, SIGNING_KEY)).await;
    let tokens = s.players(&["anna", "bert"]).await;
    let id = s.game("carcassonne", json!({}), &tokens).await;
    let first = s.get(&format!("/v1/games/{id}"), None).await.version();
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("busy-{}", s.db));
    std::fs::create_dir_all(&dir).unwrap();
    let dump = dir.join("busy.dump");

    // The backup runs while the players keep moving.
    let backup = {
        let (db, dump) = (s.db.clone(), dump.clone());
        std::thread::spawn(move || script("backup", &db, &[&dump]))
    };
    let mut pick = Pick::new(21);
    let mut during = 0;
    while !backup.is_finished() {
        let Some((_, chosen, r)) = random_step(&s, id, &tokens, &mut pick).await else {
            break;
        };
        assert_eq!(r.status, 200, "{chosen}: {}", r.body);
        during += 1;
    }
    let backup = backup.join().unwrap();
    assert!(backup.status.success(), "{}", said(&backup));
    let last = s.get(&format!("/v1/games/{id}"), None).await.version();
    assert!(during > 0, "no command was written during the backup");

    // The restore's own checks hold the dump to the manifest read from the same snapshot: row
    // counts, whole logs, sequences.
    let restored_db = format!("{}_busy", s.db);
    drop_database(&restored_db).await;
    let restore = script("restore", &restored_db, &[&dump]);
    assert!(restore.status.success(), "{}", said(&restore));
    s.finish().await;
    let r = TestServer::on_database(&restored_db, |c| configured(c, SIGNING_KEY)).await;
    let game = r.get(&format!("/v1/games/{id}"), None).await;
    let version = game.version();
    assert!(
        (first..=last).contains(&version),
        "version {version}, between {first} and {last}"
    );
    let audit = r.get(&format!("/v1/games/{id}/audit"), None).await;
    for check in [
        "chain_intact",
        "decisions_reproduced",
        "randomness_committed",
    ] {
        assert_eq!(audit.body[check], true, "{}", audit.body);
    }
    let stored: i64 = r
        .db()
        .await
        .query_one("SELECT count(*) FROM commands WHERE game_id = $1", &[&id])
        .await
        .unwrap()
        .get(0);
    let manifest: Value =
        serde_json::from_slice(&std::fs::read(dir.join("busy.dump.manifest.json")).unwrap())
            .unwrap();
    assert_eq!(
        manifest["rows"]["commands"],
        json!(stored),
        "one game, one snapshot"
    );
    if game.body["status"] == "active" {
        let seat = game.body["to_act"][0].as_u64().unwrap() as usize;
        r.first_move(id, &tokens[seat]).await;
    }
    eprintln!(
        "{during} commands during the backup; restored at version {version} of {first}..={last}"
    );
    r.finish().await;
    std::fs::remove_dir_all(&dir).unwrap();
}
