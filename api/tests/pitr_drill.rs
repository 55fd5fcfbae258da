//! Point-in-time recovery, proven with the real binary: `scripts/pitr-drill` makes a scratch
//! PostgreSQL cluster that archives its WAL, takes a base backup, plays commands through this
//! server, recovers the cluster to a time between two phases of play, and checks that the
//! recovered game is served at the target's version with the head signed then, that its audit
//! passes, that what came after the target is gone, and that play goes on. It needs PostgreSQL
//! 15's server binaries (`PG_BIN`, default /usr/lib/postgresql/15/bin), curl and jq.

use std::process::Command;

#[test]
fn a_cluster_recovered_to_a_time_serves_every_command_acknowledged_before_it_and_nothing_after() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../scripts/pitr-drill");
    let out = Command::new(script)
        .env("BAUMEISTER", env!("CARGO_BIN_EXE_baumeister"))
        .output()
        .expect("scripts/pitr-drill runs");
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    eprintln!("{said}");
    assert!(out.status.success(), "{said}");
    assert!(
        said.contains("with the same signed head, audited"),
        "{said}"
    );
}
