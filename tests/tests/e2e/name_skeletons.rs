//! Name skeletons (`account_skeleton`, `migrations/V11__name_skeletons.sql`): two names a
//! reader could confuse share one skeleton, whichever look-alike spelling each uses. The
//! skeleton lives in the database (its unique index decides registrations, also racing ones),
//! so these tests ask the database.

use baumeister_tests::{database, drop_database, fresh_database, TestServer};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};

async fn skeleton(db: &tokio_postgres::Client, name: &str) -> String {
    db.query_one("SELECT account_skeleton($1)", &[&name])
        .await
        .unwrap()
        .get(0)
}

/// The pairs the review found registrable side by side under the greedy `vv` → `w` rule, and
/// the other letters that look like two.
const LOOK_ALIKE: [(&str, &str); 10] = [
    ("qvwq", "qvvvq"),
    ("qvwvq", "qwwq"),
    ("qvwqanna", "qvvvqanna"),
    ("qvwvqbob", "qwwqbob"),
    ("qwvq", "qvwq"),
    ("rnarn", "mam"),
    ("qrnnq", "qmnq"),
    ("clara", "dara"),
    ("ccld", "cdcl"),
    ("cIare", "dare"),
];

/// Names that look different must stay apart.
const DIFFERENT: [(&str, &str); 5] = [
    ("qvq", "qwq"),
    ("qvvvq", "qwwq"),
    ("rn", "rnn"),
    ("cl", "c"),
    ("mn", "nm"),
];

#[actix_web::test]
async fn look_alike_names_share_a_skeleton_and_others_do_not() {
    let name = fresh_database().await;
    let db = database(&name).await;
    for (a, b) in LOOK_ALIKE {
        assert_eq!(skeleton(&db, a).await, skeleton(&db, b).await, "{a} / {b}");
    }
    for (a, b) in DIFFERENT {
        assert_ne!(skeleton(&db, a).await, skeleton(&db, b).await, "{a} / {b}");
    }
    // The rules of V3 still hold.
    assert_eq!(
        skeleton(&db, "-Bi1l__0.").await,
        skeleton(&db, "bill-o").await
    );
    drop(db);
    drop_database(&name).await;
}

#[actix_web::test]
async fn a_look_alike_of_a_registered_name_is_refused() {
    let s = TestServer::start().await;
    s.player("qvwqanna").await;
    s.player("qvwvqbob").await;
    for name in ["qvvvqanna", "qwvqanna", "qwwqbob", "QVVVVQBOB"] {
        let r = s.register(name, "12345678").await;
        assert_eq!(
            (r.status, r.code()),
            (409, "name_confusable"),
            "{name}: {}",
            r.body
        );
    }
    s.player("qvvqanna").await;
    s.finish().await;
}

#[actix_web::test]
async fn the_migration_recomputes_the_stored_skeletons_and_keeps_every_account() {
    let name = fresh_database().await;
    let db = database(&name).await;
    // Two accounts registered under V3's greedy rule, which told them apart; a third alone.
    db.batch_execute(
        "INSERT INTO accounts (name, skeleton, password_hash) VALUES
             ('qvwq', 'qvwq', 'x'), ('qvvvq', 'qwvq', 'x'), ('anna', 'anna', 'x')",
    )
    .await
    .unwrap();
    db.batch_execute(include_str!("../../../migrations/V11__name_skeletons.sql"))
        .await
        .unwrap();
    let rows = db
        // The bots' own accounts (made by the migrations) are not the ones under test.
        .query(
            "SELECT id, name, skeleton FROM accounts WHERE NOT bot ORDER BY id",
            &[],
        )
        .await
        .unwrap();
    let stored: Vec<(String, String)> = rows.iter().map(|r| (r.get(1), r.get(2))).collect();
    let later: i64 = rows[1].get(0);
    assert_eq!(
        stored,
        vec![
            ("qvwq".to_string(), "qvvvq".to_string()),
            ("qvvvq".to_string(), format!("qvvvq#{later}")),
            ("anna".to_string(), "anna".to_string()),
        ],
        "the earlier keeps the skeleton, the later one gets its own"
    );
    let refused = db
        .execute(
            "INSERT INTO accounts (name, skeleton, password_hash) VALUES ('qwvq', account_skeleton('qwvq'), 'x')",
            &[],
        )
        .await;
    assert!(refused.is_err(), "a third look-alike cannot be stored");
    drop(db);
    drop_database(&name).await;
}

/// One letter, or the pair of letters a reader could take for it.
fn rewrite(name: &str, flips: &[bool]) -> String {
    const PAIRS: [(&str, &str); 3] = [("w", "vv"), ("m", "rn"), ("d", "cl")];
    let mut out = String::new();
    let mut rest = name;
    let mut flips = flips.iter().cycle();
    'scan: while !rest.is_empty() {
        for (one, two) in PAIRS {
            for (from, to) in [(two, one), (one, two)] {
                if rest.starts_with(from) && *flips.next().unwrap() {
                    out.push_str(to);
                    rest = &rest[from.len()..];
                    continue 'scan;
                }
            }
        }
        out.push_str(&rest[..1]);
        rest = &rest[1..];
    }
    out
}

#[test]
fn random_names_and_their_look_alike_spellings_share_a_skeleton() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let scratch = runtime.block_on(fresh_database());
    let db = runtime.block_on(database(&scratch));
    let letters = prop::sample::select(vec!['v', 'w', 'r', 'n', 'm', 'c', 'l', 'd', 'q']);
    let strategy = (
        prop::collection::vec(letters, 1..=32).prop_map(|l| l.into_iter().collect::<String>()),
        prop::collection::vec(any::<bool>(), 1..16),
        any::<bool>(),
    );
    let mut runner = TestRunner::new(Config::with_cases(400));
    let outcome = runner.run(&strategy, |(name, flips, upper)| {
        let mut look_alike = rewrite(&name, &flips);
        if upper {
            look_alike = look_alike.to_uppercase();
        }
        let (a, b) = runtime
            .block_on(async { (skeleton(&db, &name).await, skeleton(&db, &look_alike).await) });
        if a != b {
            return Err(TestCaseError::fail(format!(
                "{name} ({a}) and {look_alike} ({b})"
            )));
        }
        Ok(())
    });
    drop(db);
    runtime.block_on(drop_database(&scratch));
    outcome.unwrap();
}

#[test]
fn the_rewriting_makes_look_alikes() {
    // The generator itself: it does rewrite, both ways.
    assert_eq!(rewrite("qvvq", &[true]), "qwq");
    assert_eq!(rewrite("qwq", &[true]), "qvvq");
    assert_eq!(rewrite("rnm", &[true]), "mrn");
    assert_eq!(rewrite("dcl", &[false]), "dcl");
}
