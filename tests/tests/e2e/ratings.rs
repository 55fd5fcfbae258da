//! Ratings and profiles: a finished rated game moves its players' Glicko-2 ratings by exactly
//! what the pure computation gives, in the transaction that finishes it; unrated games (the
//! option, imports) move nothing; profiles count games; leaderboards order and page.

use baumeister_storage::rating::{places, rate_game, Rating};
use baumeister_tests::given::ada_and_bea_playing;
use baumeister_tests::random_play::{play_to_end, random_step};
use baumeister_tests::serde_json::{json, Value};
use baumeister_tests::steps::assert_refused;
use baumeister_tests::{Pick, TestServer};

const KIND: &str = "carcassonne";

/// The finished game's status as the domain states it (winners and scores of its summary).
fn status_of(summary: &Value) -> baumeister_domain::Status {
    baumeister_domain::Status {
        finished: true,
        to_act: vec![],
        scores: baumeister_tests::serde_json::from_value(summary["scores"].clone()).unwrap(),
        winners: baumeister_tests::serde_json::from_value(summary["winners"].clone()).unwrap(),
    }
}

fn rating_of(profile: &Value, kind: &str) -> Option<Value> {
    profile["kinds"]
        .as_array()
        .unwrap()
        .iter()
        .find(|k| k["kind"] == kind)
        .map(|k| k["rating"].clone())
        .filter(|r| !r.is_null())
}

fn close(a: &Value, b: f64) {
    let a = a.as_f64().unwrap_or_else(|| panic!("{a} is a number"));
    assert!((a - b).abs() < 1e-9, "{a} is not {b}");
}

/// The `rating_changes` rows per game, and whether each game is finished and rated.
async fn stored(s: &TestServer) -> Vec<(i64, String, bool, i64)> {
    let db = s.db().await;
    db.query(
        "SELECT g.id, g.status, g.rated, (SELECT count(*) FROM rating_changes rc WHERE rc.game_id = g.id)
         FROM games g ORDER BY g.id",
        &[],
    )
    .await
    .unwrap()
    .iter()
    .map(|r| (r.get(0), r.get(1), r.get(2), r.get(3)))
    .collect()
}

/// Every rating row, written out.
async fn all_ratings(s: &TestServer) -> Vec<String> {
    s.db()
        .await
        .query(
            "SELECT kind, account_id, rating, deviation, volatility, games FROM ratings ORDER BY 1, 2",
            &[],
        )
        .await
        .unwrap()
        .iter()
        .map(|r| {
            format!(
                "{}:{}:{}:{}:{}:{}",
                r.get::<_, String>(0),
                r.get::<_, i64>(1),
                r.get::<_, f64>(2),
                r.get::<_, f64>(3),
                r.get::<_, f64>(4),
                r.get::<_, i32>(5)
            )
        })
        .collect()
}

#[actix_web::test]
async fn rated_games_move_ratings_as_glicko2_computes_and_unrated_ones_move_nothing() {
    let s = TestServer::start().await;
    let tokens = s.players(&["ada", "bea", "cyd"]).await;
    let pair = tokens[..2].to_vec();

    // Rated (the default): nothing is rated before the game has finished.
    let id = s.game(KIND, json!({}), &pair).await;
    nothing_is_rated_before_the_end(&s, id, &pair).await;
    let (expected, shown) =
        a_finished_rated_game_moves_ratings_as_glicko2_computes(&s, id, &pair).await;
    let unrated = an_unrated_game_moves_nothing(&s, &tokens, id, &shown).await;
    the_leaderboard_lists_the_rated_players_best_first(&s, &expected).await;

    // Rebuilding the projections leaves the ratings as they are: each finished rated game has
    // its rows, nothing else has any.
    let kept = all_ratings(&s).await;
    s.store.rebuild_all_projections().await.unwrap();
    assert_eq!(all_ratings(&s).await, kept);
    assert_eq!(
        stored(&s).await,
        [
            (id, "finished".into(), true, 2),
            (unrated, "finished".into(), false, 0)
        ]
    );

    an_imported_game_is_unrated(&s, id).await;
    s.finish().await;
}

/// Twenty random moves into the rated game, nothing is rated yet: ada's profile counts it
/// running, unplayed and unrated.
async fn nothing_is_rated_before_the_end(s: &TestServer, id: i64, pair: &[String]) {
    let mut pick = Pick::new(7);
    for _ in 0..20 {
        let (_, chosen, r) = random_step(s, id, pair, &mut pick).await.unwrap();
        assert_eq!(r.status, 200, "{chosen}: {}", r.body);
    }
    assert_eq!(stored(s).await, [(id, "active".into(), true, 0)]);
    let before = s.get("/v1/players/ada", None).await;
    assert_eq!(before.status, 200, "{}", before.body);
    assert_eq!(rating_of(&before.body, KIND), None);
    assert_eq!(before.body["kinds"][0]["running"], 1);
    assert_eq!(before.body["kinds"][0]["played"], 0);
}

/// Played to the end, the rated game moves both players' ratings by what `rate_game` computes,
/// and their profiles show the game; the ratings computed and the ones shown.
async fn a_finished_rated_game_moves_ratings_as_glicko2_computes(
    s: &TestServer,
    id: i64,
    pair: &[String],
) -> (Vec<Rating>, Vec<Value>) {
    let summary = play_to_end(s, id, pair, 7).await;
    assert_eq!(summary["rated"], true);
    let status = status_of(&summary);
    let placed = places(&status, 2);
    let expected = rate_game(&[Rating::NEW; 2], &placed);
    assert_eq!(stored(s).await, [(id, "finished".into(), true, 2)]);
    let mut shown = Vec::new();
    for (seat, name) in ["ada", "bea"].iter().enumerate() {
        let profile = s.get(&format!("/v1/players/{name}"), None).await.body;
        let rating = rating_of(&profile, KIND).expect("rated after a rated game");
        close(&rating["rating"], expected[seat].rating);
        close(&rating["deviation"], expected[seat].deviation);
        close(&rating["volatility"], expected[seat].volatility);
        assert_eq!(rating["rated_games"], 1);
        let record = &profile["kinds"][0];
        assert_eq!(
            (&record["played"], &record["running"]),
            (&json!(1), &json!(0))
        );
        let won = status.winners.contains(&(seat as u8));
        assert_eq!(record["won"], json!(won as i64));
        let recent = &profile["recent"][0];
        assert_eq!(recent["id"], id);
        assert_eq!(recent["seat"], seat);
        assert_eq!(recent["place"], placed[seat]);
        assert_eq!(recent["won"], won);
        assert_eq!(recent["rated"], true);
        close(&recent["rating_before"], 1500.0);
        close(&recent["rating_after"], expected[seat].rating);
        assert_eq!(
            recent["seats"][1 - seat]["player"],
            ["ada", "bea"][1 - seat]
        );
        assert!(profile["member_since"].is_string());
        shown.push(rating);
    }
    if placed[0] != placed[1] {
        assert_ne!(expected[0].rating, 1500.0, "a decided game moves ratings");
    }

    (expected, shown)
}

/// An unrated game (the option, shown in its summary) moves nobody's rating but counts as
/// played; a bad `rated` is refused; the unrated game's id.
async fn an_unrated_game_moves_nothing(
    s: &TestServer,
    tokens: &[String],
    rated: i64,
    shown: &[Value],
) -> i64 {
    let pair = &tokens[..2];
    let r = s
        .post(
            "/v1/games",
            Some(&tokens[0]),
            &json!({"kind": KIND, "seats": 2, "rated": false}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.body["rated"], false);
    let unrated = r.body["id"].as_i64().unwrap();
    s.joined(unrated, &tokens[1]).await;
    let summary = play_to_end(s, unrated, pair, 8).await;
    assert_eq!(summary["rated"], false);
    for (seat, name) in ["ada", "bea"].iter().enumerate() {
        let profile = s.get(&format!("/v1/players/{name}"), None).await.body;
        assert_eq!(rating_of(&profile, KIND).unwrap(), shown[seat]);
        assert_eq!(profile["kinds"][0]["played"], 2);
        assert_eq!(profile["recent"][0]["id"], unrated);
        assert_eq!(profile["recent"][0]["rated"], false);
        assert!(profile["recent"][0]["rating_after"].is_null());
        assert_eq!(profile["recent"][1]["id"], rated);
    }
    // A bad `rated` is refused.
    let r = s
        .post(
            "/v1/games",
            Some(&tokens[0]),
            &json!({"kind": KIND, "seats": 2, "rated": "no"}),
        )
        .await;
    assert_eq!(r.status, 400, "{}", r.body);

    unrated
}

/// The leaderboard lists the two rated players, best first; cyd (named in any case) has no
/// rated game, and nobody is not found.
async fn the_leaderboard_lists_the_rated_players_best_first(s: &TestServer, expected: &[Rating]) {
    let board = s.get(&format!("/v1/kinds/{KIND}/leaderboard"), None).await;
    assert_eq!(board.status, 200, "{}", board.body);
    let players = board.body["players"].as_array().unwrap();
    assert_eq!(players.len(), 2);
    let best = if expected[0].rating >= expected[1].rating {
        0
    } else {
        1
    };
    assert_eq!(players[0]["player"], ["ada", "bea"][best]);
    assert_eq!(players[0]["rank"], 1);
    assert_eq!(players[0]["rated_games"], 1);
    assert_eq!(players[0]["played"], 2);
    let cyd = s.get("/v1/players/CYD", None).await;
    assert_eq!(cyd.status, 200, "names in any case: {}", cyd.body);
    assert_eq!(cyd.body["kinds"], json!([]));
    assert_eq!(cyd.body["recent"], json!([]));
    let nobody = s.get("/v1/players/nobody", None).await;
    assert_eq!(nobody.status, 404, "{}", nobody.body);
}

/// An exported game imported into a server that trusts this one is unrated there: nobody sits
/// at it, and no rating is made.
async fn an_imported_game_is_unrated(s: &TestServer, id: i64) {
    let exported = s.get(&format!("/v1/games/{id}/export"), None).await;
    assert_eq!(exported.status, 200, "{}", exported.body);
    let key = s.store.public_key();
    let b = TestServer::start_with(|c| c.trusted_keys = vec![key]).await;
    let r = b.import_as_auditor("vera", &exported.body).await;
    assert_eq!(r.body["rated"], false);
    let board = b.get(&format!("/v1/kinds/{KIND}/leaderboard"), None).await;
    assert_eq!(board.body["players"], json!([]));
    assert_eq!(
        b.db()
            .await
            .query("SELECT 1 FROM ratings", &[])
            .await
            .unwrap()
            .len(),
        0
    );
    b.finish().await;
}

#[actix_web::test]
async fn the_finishing_command_and_its_rating_update_are_one_transaction() {
    let (s, tokens, id) = ada_and_bea_playing(KIND, json!({})).await;
    // Every rating update fails from now on: the commands that do not finish the game never
    // touch the ratings, and the one that does must fail whole.
    let db = s.db().await;
    db.batch_execute(
        "CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN RAISE EXCEPTION 'refused by the test'; END $$;
         CREATE TRIGGER refuse BEFORE INSERT ON rating_changes FOR EACH ROW EXECUTE FUNCTION refuse();",
    )
    .await
    .unwrap();
    let mut pick = Pick::new(3);
    let (seat, chosen) = loop {
        let (seat, chosen, r) = random_step(&s, id, &tokens, &mut pick)
            .await
            .expect("the game cannot finish while its ratings cannot be written");
        if r.status != 200 {
            assert_eq!(r.status, 500, "{}", r.body);
            break (seat, chosen);
        }
        assert_eq!(stored(&s).await[0].3, 0);
    };
    let game = s.get(&format!("/v1/games/{id}"), None).await.body;
    assert_eq!(
        game["status"], "active",
        "the finishing command was not written"
    );
    let version = game["version"].clone();
    assert_eq!(stored(&s).await, [(id, "active".into(), true, 0)]);
    assert_eq!(
        db.query("SELECT 1 FROM ratings", &[]).await.unwrap().len(),
        0
    );

    db.batch_execute("DROP TRIGGER refuse ON rating_changes")
        .await
        .unwrap();
    let r = s.commanded(id, &tokens[seat], &chosen).await;
    assert_eq!(r.body["finished"], true);
    assert!(r.body["version"].as_i64() > version.as_i64());
    assert_eq!(stored(&s).await, [(id, "finished".into(), true, 2)]);
    assert_eq!(
        db.query("SELECT 1 FROM ratings", &[]).await.unwrap().len(),
        2
    );
    s.finish().await;
}

#[actix_web::test]
async fn the_leaderboard_orders_by_rating_and_pages() {
    let s = TestServer::start().await;
    let names = ["ada", "bea", "cyd", "dan", "eve"];
    s.players(&names).await;
    // Ratings as rated games would leave them (the computation is tested above).
    let db = s.db().await;
    for (name, rating) in names.iter().zip([1510.0, 1720.5, 1390.0, 1720.5, 1600.0]) {
        db.execute(
            "INSERT INTO ratings (kind, account_id, rating, deviation, volatility, games)
             SELECT $1, id, $3, 200, 0.06, 3 FROM accounts WHERE name = $2",
            &[&KIND, name, &rating],
        )
        .await
        .unwrap();
    }
    let page = |query: &str| {
        let path = format!("/v1/kinds/{KIND}/leaderboard{query}");
        let s = &s;
        async move {
            let r = s.get(&path, None).await;
            assert_eq!(r.status, 200, "{}", r.body);
            r.body
        }
    };
    let first = page("?limit=2").await;
    let who = |b: &Value| -> Vec<String> {
        b["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["player"].as_str().unwrap().to_string())
            .collect()
    };
    // Equal ratings: the earlier account first.
    assert_eq!(who(&first), ["bea", "dan"]);
    assert_eq!(first["next_offset"], 2);
    assert_eq!(first["players"][1]["rank"], 2);
    let second = page("?limit=2&offset=2").await;
    assert_eq!(who(&second), ["eve", "ada"]);
    assert_eq!(second["players"][0]["rank"], 3);
    let last = page("?limit=2&offset=4").await;
    assert_eq!(who(&last), ["cyd"]);
    assert!(last["next_offset"].is_null());
    assert_eq!(who(&page("").await).len(), 5);
    assert_eq!(who(&page("").await), ["bea", "dan", "eve", "ada", "cyd"]);
    for (query, status) in [("?limit=0", 400), ("?limit=101", 400), ("?offset=-1", 400)] {
        let r = s
            .get(&format!("/v1/kinds/{KIND}/leaderboard{query}"), None)
            .await;
        assert_eq!(r.status, status, "{query}: {}", r.body);
    }
    let r = s.get("/v1/kinds/chess/leaderboard", None).await;
    assert_refused(&r, 404, "kind_not_found");
    s.finish().await;
}

#[actix_web::test]
async fn a_game_the_turn_clock_ended_alone_is_rated_and_a_stale_rating_is_refused() {
    let (s, _, id) = ada_and_bea_playing("space-builder", json!({"move_minutes": 1})).await;
    let mut summary = Value::Null;
    for _ in 0..500 {
        s.store.advance_clock(60_000);
        s.store.sweep_once().await.unwrap();
        summary = s.get(&format!("/v1/games/{id}"), None).await.body;
        if summary["status"] == "finished" {
            break;
        }
    }
    assert_eq!(summary["status"], "finished", "the clock alone ends it");
    // Nobody played a move, and the vanished players' result counts all the same.
    assert_eq!(stored(&s).await, [(id, "finished".into(), true, 2)]);
    let expected = rate_game(&[Rating::NEW; 2], &places(&status_of(&summary), 2));
    let profile = s.get("/v1/players/bea", None).await.body;
    close(
        &rating_of(&profile, "space-builder").unwrap()["rating"],
        expected[1].rating,
    );

    // The guard of concurrent finishes: `rate_game` refuses changes computed from a rating
    // that has moved since (its count of rated games), with a serialization failure, on which
    // the command is decided again.
    let db = s.db().await;
    let ada: i64 = db
        .query_one("SELECT id FROM accounts WHERE name = 'ada'", &[])
        .await
        .unwrap()
        .get(0);
    let stale = json!([{"account_id": ada, "seat": 0, "place": 1, "games": 0,
        "rating_before": 1500.0, "deviation_before": 350.0, "volatility_before": 0.06,
        "rating": 1600.0, "deviation": 300.0, "volatility": 0.06}]);
    let e = db
        .query_one("SELECT rate_game($1, 'space-builder', $2)", &[&id, &stale])
        .await
        .unwrap_err();
    assert_eq!(
        e.code(),
        Some(&tokio_postgres::error::SqlState::T_R_SERIALIZATION_FAILURE),
        "{e}"
    );
    assert_eq!(stored(&s).await, [(id, "finished".into(), true, 2)]);
    s.finish().await;
}

/// A finishing command whose players' ratings moved between its read of them and its append
/// (another rated game of theirs finished meanwhile: `rate_game` refuses with a serialization
/// failure) is decided again, also when the client pinned the version it saw: the game did not
/// move, so there is no conflict to report. It was answered 409 `version_conflict` "at version
/// N, not N" (seen by the benchmark, whose clients share accounts across games).
#[actix_web::test]
async fn a_lost_rating_race_is_decided_again_not_reported_as_a_version_conflict() {
    let (s, tokens, id) = ada_and_bea_playing(KIND, json!({})).await;
    let db = s.db().await;
    db.batch_execute(
        "CREATE SEQUENCE lost_once;
         CREATE FUNCTION lose_once() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN
             IF nextval('lost_once') <= 2 THEN
                 RAISE EXCEPTION 'the ratings moved (the test)' USING ERRCODE = 'serialization_failure';
             END IF;
             RETURN NEW;
         END $$;
         CREATE TRIGGER lose_once BEFORE INSERT ON rating_changes
             FOR EACH ROW EXECUTE FUNCTION lose_once();",
    )
    .await
    .unwrap();
    let mut pick = Pick::new(5);
    while let Some((_, chosen, r)) = random_step(&s, id, &tokens, &mut pick).await {
        assert!(chosen.get("expected_version").is_some(), "pinned: {chosen}");
        assert_eq!(r.status, 200, "{}", r.body);
    }
    let tries: i64 = db
        .query_one("SELECT last_value FROM lost_once", &[])
        .await
        .unwrap()
        .get(0);
    // Lost on the cached aggregate's one round trip, lost again after reading the head, won.
    assert!(tries >= 3, "two tries lost the race and a third won");
    assert_eq!(stored(&s).await, [(id, "finished".into(), true, 2)]);
    s.finish().await;
}
