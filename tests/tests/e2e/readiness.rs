//! Liveness and readiness (docs/operations.md, "Health"): `/healthz` answers while the process
//! does; `/readyz` only while the database answers and holds exactly the migrations this binary
//! carries: one missing (`behind`), one it does not know (`ahead`, applied by a newer binary) or
//! one changed (`divergent`) makes it 503 until the database is right again.

use baumeister_tests::{database, database_url, drop_database, TestServer};

#[actix_web::test]
async fn readiness_wants_the_database_at_exactly_this_binarys_migrations() {
    let s = TestServer::start().await;
    let ready = s.get("/readyz", None).await;
    assert_eq!(ready.status, 200, "{}", ready.body);
    assert_eq!(ready.body["status"], "ready");
    assert_eq!(ready.body["database"], "ok");
    assert_eq!(ready.body["stopping"], false);
    assert_eq!(ready.body["migrations"]["state"], "current");
    let newest = ready.body["migrations"]["expected"].as_i64().unwrap();
    assert!(newest >= 20, "{}", ready.body);
    assert_eq!(ready.body["migrations"]["applied"], newest);

    let db = s.db().await;
    let row = db
        .query_one(
            "SELECT name, applied_on, checksum FROM refinery_schema_history WHERE version = $1",
            &[&(newest as i32)],
        )
        .await
        .unwrap();
    let (name, applied_on, checksum): (String, String, String) =
        (row.get(0), row.get(1), row.get(2));
    let not_ready = |state: &'static str| {
        let s = &s;
        async move {
            let r = s.get("/readyz", None).await;
            assert_eq!(r.status, 503, "{state}: {}", r.body);
            assert_eq!(r.body["status"], "not_ready");
            assert_eq!(r.body["database"], "ok");
            assert_eq!(r.body["migrations"]["state"], state, "{}", r.body);
            // Alive all the same.
            assert_eq!(s.get("/healthz", None).await.status, 200);
            r
        }
    };

    // The newest migration missing: a database older than the binary.
    db.execute(
        "DELETE FROM refinery_schema_history WHERE version = $1",
        &[&(newest as i32)],
    )
    .await
    .unwrap();
    let behind = not_ready("behind").await;
    assert_eq!(behind.body["migrations"]["applied"], newest - 1);
    let restore = "INSERT INTO refinery_schema_history (version, name, applied_on, checksum)
                   VALUES ($1, $2, $3, $4)";
    db.execute(restore, &[&(newest as i32), &name, &applied_on, &checksum])
        .await
        .unwrap();
    assert_eq!(s.get("/readyz", None).await.status, 200);

    // One it does not know: a newer binary migrated the database.
    db.execute(
        "INSERT INTO refinery_schema_history (version, name, applied_on, checksum)
         VALUES ($1, 'from_a_newer_binary', 'now', '1')",
        &[&(newest as i32 + 1)],
    )
    .await
    .unwrap();
    let ahead = not_ready("ahead").await;
    assert_eq!(ahead.body["migrations"]["applied"], newest + 1);
    db.execute(
        "DELETE FROM refinery_schema_history WHERE version = $1",
        &[&(newest as i32 + 1)],
    )
    .await
    .unwrap();
    assert_eq!(s.get("/readyz", None).await.status, 200);

    // One applied with other contents.
    db.execute(
        "UPDATE refinery_schema_history SET checksum = '1' WHERE version = $1",
        &[&(newest as i32)],
    )
    .await
    .unwrap();
    not_ready("divergent").await;
    db.execute(
        "UPDATE refinery_schema_history SET checksum = $2 WHERE version = $1",
        &[&(newest as i32), &checksum],
    )
    .await
    .unwrap();
    assert_eq!(s.get("/readyz", None).await.status, 200);
    s.finish().await;
}

/// Several processes of a service started at once on a database none has migrated yet (a new
/// service, or an upgrade started everywhere together): each waits for the one migrating, and
/// every migration is applied once.
#[actix_web::test]
async fn processes_starting_at_once_migrate_one_after_the_other() {
    let db = format!("bm_test_{}_migrating_at_once", std::process::id());
    drop_database(&db).await;
    let url = database_url(&db);
    baumeister_storage::ensure_database(&url).await.unwrap();
    let (a, b, c) = tokio::join!(
        baumeister_storage::migrate(&url),
        baumeister_storage::migrate(&url),
        baumeister_storage::migrate(&url)
    );
    for (n, result) in [a, b, c].into_iter().enumerate() {
        assert!(result.is_ok(), "process {n}: {result:?}");
    }
    let files = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../migrations"))
        .unwrap()
        .filter(|f| {
            f.as_ref()
                .unwrap()
                .file_name()
                .to_string_lossy()
                .ends_with(".sql")
        })
        .count() as i64;
    let applied: i64 = database(&db)
        .await
        .query_one("SELECT count(*) FROM refinery_schema_history", &[])
        .await
        .unwrap()
        .get(0);
    assert_eq!(applied, files, "each migration once");
    drop_database(&db).await;
}
