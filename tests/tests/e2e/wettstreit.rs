//! Wettstreit der Baumeister end to end: whole games played by following `/moves`, by a sensible
//! client and by one that picks uniformly among every listed move (bids included), with each
//! seat's money and the face-down cards secret from the others until the end.

use baumeister_tests::serde_json::{json, Value};
use baumeister_tests::{Pick, TestServer};

/// A sensible player: bids within its purse, builds when it can, sometimes sabotages.
fn choose(pick: &mut Pick, moves: &[Value], purse: u64) -> Value {
    let of =
        |t: &str| -> Vec<&Value> { moves.iter().filter(|m| m["command"]["type"] == t).collect() };
    let roll = pick.below(100);
    let raises = of("RaiseBid");
    let pass = of("PassBid");
    if !pass.is_empty() {
        let cheapest = raises.first().and_then(|r| r["command"]["amount"].as_u64());
        return match cheapest {
            Some(amount) if roll >= 60 && amount <= purse => {
                raises[pick.below(raises.len().min(3))].clone()
            }
            _ => pass[0].clone(),
        };
    }
    let opening: Vec<&Value> = of("MakeOpeningBid")
        .into_iter()
        .filter(|m| m["command"]["amount"].as_u64().unwrap_or(0) <= 6)
        .collect();
    if !opening.is_empty() {
        return opening[pick.below(opening.len())].clone();
    }
    let mut builds = of("FoundCity");
    builds.extend(of("BuildCard"));
    let mut sabotage = of("SabotageBuilding");
    sabotage.extend(of("SabotageHand"));
    if !sabotage.is_empty() && roll < 25 {
        return sabotage[pick.below(sabotage.len())].clone();
    }
    if !builds.is_empty() && roll < 85 {
        return builds[pick.below(builds.len())].clone();
    }
    if let Some(finish) = of("FinishBuildStep").first() {
        if roll < 95 || builds.is_empty() {
            return (*finish).clone();
        }
    }
    moves[pick.below(moves.len())].clone()
}

/// What the log shows `me` of other seats' secrets while the game runs: nothing.
async fn check_log_hides_secrets(s: &TestServer, id: i64, token: &str, me: u64) {
    let mut after = 0;
    loop {
        let page = s
            .get(
                &format!("/v1/games/{id}/events?after={after}&limit=1000"),
                Some(token),
            )
            .await;
        for entry in page.body["events"].as_array().unwrap() {
            let e = &entry["event"];
            let mine = |field: &str| e[field].as_u64() == Some(me);
            match e["type"].as_str().unwrap() {
                "WettstreitCardsShuffled" => {
                    assert!(e["open"].is_null() && e["face_down"].is_null(), "{e}")
                }
                "IncomeRolled" if !mine("seat") => assert!(e["taler"].is_null(), "{e}"),
                "BidderInsolvent" if !mine("seat") => assert!(e["forfeited"].is_null(), "{e}"),
                "CardPutUpForAuction" | "AuctionOpened"
                    if e["stack"] != "open" && !mine("auctioneer") =>
                {
                    assert!(e["card"].is_null(), "{e}")
                }
                "AuctionCardRemoved" if e["stack"] != "open" && !mine("auctioneer") => {
                    assert!(e["card"].is_null(), "{e}");
                    assert_eq!(e["kind"].is_null(), e["kind_announced"] == false, "{e}");
                }
                _ => {}
            }
        }
        match page.body["next_after"].as_i64() {
            Some(next) => after = next,
            None => return,
        }
    }
}

#[actix_web::test]
async fn a_whole_three_player_game_is_played_by_following_moves() {
    let s = TestServer::start().await;
    let tokens = s.players(&["ada", "bea", "cem"]).await;
    let id = s.game("wettstreit", json!({}), &tokens).await;
    let mut pick = Pick::new(7);
    let mut commands = 0;
    loop {
        let game = s.get(&format!("/v1/games/{id}"), Some(&tokens[0])).await;
        assert_eq!(game.status, 200, "{}", game.body);
        if game.body["status"] == "finished" {
            break;
        }
        let seat = game.body["to_act"][0].as_u64().expect("somebody acts") as usize;
        let mine = s.get(&format!("/v1/games/{id}"), Some(&tokens[seat])).await;
        let players = mine.body["view"]["players"].as_array().unwrap();
        for p in players {
            let visible = p["money"].is_number();
            assert_eq!(
                visible,
                p["seat"] == seat,
                "only one's own money is shown: {p}"
            );
        }
        let purse = players[seat]["money"].as_u64().unwrap();
        let moves = s.moves(id, &tokens[seat]).await;
        let moves = moves.body["moves"].as_array().unwrap().clone();
        assert!(!moves.is_empty(), "seat {seat} must act and has moves");
        if commands % 25 == 0 {
            for (me, token) in tokens.iter().enumerate() {
                check_log_hides_secrets(&s, id, token, me as u64).await;
            }
        }
        let chosen = choose(&mut pick, &moves, purse);
        s.commanded(id, &tokens[seat], &chosen).await;
        commands += 1;
        assert!(commands < 5000, "the game does not end");
    }
    let game = s.get(&format!("/v1/games/{id}"), None).await;
    assert_eq!(game.body["status"], "finished");
    assert!(!game.body["winners"].as_array().unwrap().is_empty());
    assert_eq!(game.body["scores"].as_array().unwrap().len(), 3);
    for p in game.body["view"]["players"].as_array().unwrap() {
        assert!(p["money"].is_number(), "after the end all purses are shown");
    }
    let audit = s.get(&format!("/v1/games/{id}/audit"), None).await;
    assert_eq!(audit.body["chain_intact"], true, "{}", audit.body);
    assert_eq!(audit.body["decisions_reproduced"], true, "{}", audit.body);
    s.finish().await;
}

/// The most commands a uniformly random client may need for a whole game. In the domain's
/// measurement (20,000 games per table size) the longest game took 424 commands with 3 players
/// and 472 with 4.
const UNIFORM_BOUND: usize = 1_000;

/// Plays a whole game picking uniformly among the acting seat's `/moves` (bids included, so
/// most auctions end in insolvency and many cards leave the game). Returns the commands sent.
async fn play_uniformly(s: &TestServer, id: i64, tokens: &[String], seed: u64) -> usize {
    let mut pick = Pick::new(seed);
    let game = s.get(&format!("/v1/games/{id}"), None).await;
    let mut to_act = game.body["to_act"].clone();
    for sent in 0..UNIFORM_BOUND {
        let Some(seat) = to_act[0].as_u64() else {
            return sent;
        };
        let token = &tokens[seat as usize];
        let moves = s.moves(id, token).await;
        let moves = moves.body["moves"].as_array().unwrap().clone();
        assert!(!moves.is_empty(), "seat {seat} must act and has moves");
        let chosen = &moves[pick.below(moves.len())];
        let r = s.commanded(id, token, chosen).await;
        if r.body["finished"] == true {
            return sent + 1;
        }
        to_act = r.body["to_act"].clone();
    }
    panic!("no end after {UNIFORM_BOUND} uniformly random commands");
}

#[actix_web::test]
async fn uniformly_random_clients_play_whole_games_to_the_end() {
    let s = TestServer::start().await;
    let tokens = s.players(&["ada", "bea", "cem", "dan"]).await;
    for (n, seed) in [(3usize, 21u64), (4, 22)] {
        let id = s.game("wettstreit", json!({}), &tokens[..n]).await;
        let sent = play_uniformly(&s, id, &tokens[..n], seed).await;
        assert!(sent < UNIFORM_BOUND);
        let game = s.get(&format!("/v1/games/{id}"), None).await;
        assert_eq!(game.body["status"], "finished");
        assert!(!game.body["winners"].as_array().unwrap().is_empty());
        let audit = s.get(&format!("/v1/games/{id}/audit"), None).await;
        assert_eq!(audit.body["decisions_reproduced"], true, "{}", audit.body);
    }
    s.finish().await;
}

#[actix_web::test]
async fn the_face_down_card_is_shown_to_its_auctioneer_alone_before_the_opening_bid() {
    let s = TestServer::start().await;
    let tokens = s.players(&["ada", "bea", "cem"]).await;
    let id = s.game("wettstreit", json!({}), &tokens).await;
    let game = s.get(&format!("/v1/games/{id}"), None).await;
    let me = game.body["to_act"][0].as_u64().unwrap() as usize;
    let path = format!("/v1/games/{id}/commands");
    let send = |command: Value| s.post(&path, Some(&tokens[me]), &json!({ "command": command }));
    let r = send(json!({"type": "RollIncomeDie"})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        r.body["to_act"],
        json!([me]),
        "the supply is full: no choice to make"
    );
    let r = send(json!({"type": "AuctionTopCard", "stack": "face_down"})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    // The response, the auctioneer's copy of the log: the card.
    let put_up = &r.body["events"][0]["event"];
    assert_eq!(put_up["type"], "CardPutUpForAuction");
    let card = put_up["card"]
        .as_u64()
        .expect("the auctioneer sees the card");
    let mine = s.get(&format!("/v1/games/{id}"), Some(&tokens[me])).await;
    assert_eq!(mine.body["view"]["face_down_stack"]["top"]["card"], card);
    assert_eq!(mine.body["view"]["phase"], "opening_bid");
    let moves = s.moves(id, &tokens[me]).await;
    assert_eq!(moves.body["moves"].as_array().unwrap().len(), 90);
    assert_eq!(moves.body["moves"][0]["command"]["type"], "MakeOpeningBid");
    // Nobody else: not in their view, not in their log, not in a spectator's.
    let others: Vec<Option<&str>> = (0..3)
        .filter(|&seat| seat != me)
        .map(|seat| Some(tokens[seat].as_str()))
        .chain([None])
        .collect();
    for reader in others {
        let theirs = s.get(&format!("/v1/games/{id}"), reader).await;
        assert!(theirs.body["view"]["face_down_stack"]["top"].is_null());
        assert!(theirs.body["view"]["auction"]["top"].is_null());
        let log = s.get(&format!("/v1/games/{id}/events"), reader).await;
        let put_up = log.body["events"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["event"]["type"] == "CardPutUpForAuction")
            .unwrap()
            .clone();
        assert!(put_up["event"]["card"].is_null(), "{put_up}");
    }
    let r = send(json!({"type": "MakeOpeningBid", "amount": 2})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["events"][0]["event"]["type"], "AuctionOpened");
    s.finish().await;
}
