//! Wettstreit der Baumeister end to end: a whole 3-player game played by following `/moves`,
//! with each seat's money secret from the others until the end.

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
    let auction: Vec<&Value> = of("AuctionTopCard")
        .into_iter()
        .filter(|m| m["command"]["opening_bid"].as_u64().unwrap_or(0) <= 6)
        .collect();
    if !auction.is_empty() {
        return auction[pick.below(auction.len())].clone();
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
                "AuctionOpened" if e["stack"] != "open" && !mine("auctioneer") => {
                    assert!(e["card"].is_null(), "{e}")
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
        let moves = s
            .get(&format!("/v1/games/{id}/moves"), Some(&tokens[seat]))
            .await;
        let moves = moves.body["moves"].as_array().unwrap().clone();
        assert!(!moves.is_empty(), "seat {seat} must act and has moves");
        if commands % 25 == 0 {
            for (me, token) in tokens.iter().enumerate() {
                check_log_hides_secrets(&s, id, token, me as u64).await;
            }
        }
        let chosen = choose(&mut pick, &moves, purse);
        let r = s
            .post(
                &format!("/v1/games/{id}/commands"),
                Some(&tokens[seat]),
                &chosen,
            )
            .await;
        assert_eq!(r.status, 200, "{chosen} refused: {}", r.body);
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
