//! Bots a person can beat: in Space Builder's race a bot lays its cards at a person's pace
//! (`domain/src/bots/pace.rs`), so a person who builds the plan at 3 s a card wins the round;
//! and a game created against bots is unrated unless its creator asks for a rated one.
//! The store's clock stands in for the seconds a person and the bot take.

use std::time::Duration;

use baumeister_tests::given::anna_creates_game;
use baumeister_tests::person_builder::{next_command, send};
use baumeister_tests::serde_json::{json, Value};
use baumeister_tests::TestServer;

async fn view(s: &TestServer, id: i64, token: &str) -> Value {
    s.get(&format!("/v1/games/{id}"), Some(token)).await.body
}

#[actix_web::test]
async fn a_space_builder_bot_builds_at_a_persons_pace_and_a_person_at_three_seconds_a_card_wins_the_round(
) {
    let (s, anna, r) = anna_creates_game(
        json!({"kind": "space-builder", "seats": 2, "bots": [{"seat": 1, "level": "greedy"}]}),
    )
    .await;
    let id = r.body["id"].as_i64().unwrap();

    // Not a card before a person could have read the plan.
    actix_web::rt::time::sleep(Duration::from_millis(800)).await;
    let game = view(&s, id, &anna).await;
    assert_eq!(game["status"], "active", "{game}");
    assert_eq!(game["view"]["round"], 1, "{game}");
    assert_eq!(game["view"]["players"][1]["placed"], 0, "{game}");

    // Anna lays a card every 3 s; the greedy bot takes 2 to 3.5 s an act (laying four cards,
    // then finishing), so she finishes first with the plan built exactly.
    let mut cards = 0;
    loop {
        let game = view(&s, id, &anna).await;
        if game["view"]["round"] != 1 || game["view"]["phase"] != "building" {
            break;
        }
        let Some((command, card)) = next_command(&game["view"], 0) else {
            break;
        };
        if card {
            s.store.advance_clock(3_000);
            cards += 1;
            // Time for the bot's sweep (it looks at the clock every 100 ms) to act if due.
            actix_web::rt::time::sleep(Duration::from_millis(400)).await;
            let placed = view(&s, id, &anna).await["view"]["players"][1]["placed"].clone();
            assert!(
                placed.as_u64().is_some_and(|p| p <= cards),
                "the bot lays at most a card per 3 s: {placed} after {cards}"
            );
        }
        assert_eq!(send(&s, id, &anna, &command).await, 200, "{command}");
    }
    let game = view(&s, id, &anna).await;
    let result = &game["view"]["last_round"];
    assert_eq!(result["winner"], 0, "{game}");
    assert_eq!(result["cities"][0]["faults"], 0, "{game}");
    assert_eq!(game["view"]["players"][1]["finished"], false, "{game}");
    s.finish().await;
}

#[actix_web::test]
async fn a_game_against_bots_is_unrated_unless_its_creator_asks_for_a_rated_one() {
    let s = TestServer::start().await;
    let anna = s.player("anna").await;
    let create = |body: Value| s.post("/v1/games", Some(&anna), &body);
    let bots = json!([{"seat": 1, "level": "random"}]);
    let r = create(json!({"kind": "mauerbauer", "seats": 2, "bots": bots})).await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.body["rated"], false, "against bots: practice");
    let r = create(json!({"kind": "mauerbauer", "seats": 2, "bots": bots, "rated": true})).await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.body["rated"], true, "chosen");
    let r = create(json!({"kind": "mauerbauer", "seats": 2})).await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.body["rated"], true, "between people: rated");
    s.finish().await;
}
