//! The deployment files of `docs/deploy/` (docs/operations.md, "Deploying") say what the server
//! reads: every variable of the environment file is one `docs/configuration.md` documents (which
//! `configuration_doc.rs` holds to the code); the unit runs the binary's `serve` as its own user
//! with that file, stops it with SIGTERM and waits longer than the server's own bound, and
//! parses (`systemd-analyze verify`); the nginx example passes `nginx -t` and passes the header
//! the environment file names. Those two tools are used where they are installed (Debian:
//! `systemd`, `nginx-light`); without them, a test says so and checks the text alone.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

fn docs() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs")
}

fn read(path: &str) -> String {
    std::fs::read_to_string(docs().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// `NAME=value` lines of the environment file, commented-out ones (`#NAME=…`) too.
fn environment() -> Vec<(String, String, bool)> {
    read("deploy/baumeister.env")
        .lines()
        .filter_map(|line| {
            let (set, rest) = match line.strip_prefix('#') {
                Some(rest) => (false, rest),
                None => (true, line),
            };
            let (name, value) = rest.split_once('=')?;
            let is_name = !name.is_empty()
                && name
                    .bytes()
                    .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_');
            is_name.then(|| (name.to_string(), value.to_string(), set))
        })
        .collect()
}

/// The variables of `docs/configuration.md`'s table of the server.
fn documented() -> BTreeSet<String> {
    let text = read("configuration.md");
    let section = text
        .split("## The server")
        .nth(1)
        .expect("the server's section")
        .split("\n## ")
        .next()
        .unwrap();
    section
        .lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split('`').next())
        .map(str::to_string)
        .collect()
}

fn value<'a>(env: &'a [(String, String, bool)], name: &str) -> &'a str {
    env.iter()
        .find(|(n, _, set)| n == name && *set)
        .map(|(_, v, _)| v.as_str())
        .unwrap_or_else(|| panic!("the environment file sets {name}"))
}

#[test]
fn every_variable_of_the_environment_file_is_documented_and_the_keys_persist() {
    let env = environment();
    assert!(env.len() > 10, "{env:?}");
    let documented = documented();
    for (name, _, _) in &env {
        assert!(
            documented.contains(name),
            "{name} is in docs/deploy/baumeister.env but not in docs/configuration.md"
        );
    }
    // The keys that must outlive a restart are files in the unit's state directory.
    for key in ["SIGNING_KEY_FILE", "VAPID_KEY_FILE"] {
        assert!(
            value(&env, key).starts_with("/var/lib/baumeister/"),
            "{key}"
        );
    }
    assert!(
        value(&env, "BIND").starts_with("127.0.0.1:"),
        "behind the proxy only"
    );
    assert_eq!(value(&env, "LOG_FORMAT"), "json");
    assert!(env.iter().any(|(n, _, set)| n == "JWT_SECRET" && *set));
}

/// The lines of the unit's section `[name]`, as (key, value).
fn section(unit: &str, name: &str) -> Vec<(String, String)> {
    let header = format!("[{name}]");
    unit.lines()
        .skip_while(|l| l.trim() != header)
        .skip(1)
        .take_while(|l| !l.starts_with('['))
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (k, v) = l
                .split_once('=')
                .unwrap_or_else(|| panic!("not a setting: {l}"));
            (k.to_string(), v.to_string())
        })
        .collect()
}

#[test]
fn the_unit_serves_as_its_own_user_with_the_environment_file_and_stops_gracefully() {
    let unit = read("deploy/baumeister.service");
    let service = section(&unit, "Service");
    let get = |key: &str| {
        service
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
            .unwrap_or_else(|| panic!("the unit has no {key}="))
    };
    assert_eq!(get("ExecStart"), "/usr/local/bin/baumeister serve");
    assert_eq!(get("EnvironmentFile"), "/etc/baumeister/baumeister.env");
    assert_eq!(get("User"), "baumeister");
    assert_eq!(get("KillSignal"), "SIGTERM");
    assert_eq!(get("StateDirectory"), "baumeister");
    let stop: u64 = get("TimeoutStopSec").parse().unwrap();
    let env = environment();
    let shutdown: u64 = value(&env, "SHUTDOWN_TIMEOUT_SECONDS").parse().unwrap();
    assert!(
        stop > shutdown,
        "systemd kills only after the server's own bound"
    );
    assert_eq!(
        section(&unit, "Install"),
        [("WantedBy".to_string(), "multi-user.target".to_string())]
    );

    // systemd's own reading of it, with the binary just built in place of the installed one.
    let Ok(probe) = Command::new("systemd-analyze").arg("--version").output() else {
        eprintln!("systemd-analyze is not installed: the unit was checked as text only");
        return;
    };
    assert!(probe.status.success());
    let dir = std::env::temp_dir().join(format!("baumeister-unit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let copy = dir.join("baumeister.service");
    std::fs::write(
        &copy,
        unit.replace(
            "/usr/local/bin/baumeister",
            env!("CARGO_BIN_EXE_baumeister"),
        ),
    )
    .unwrap();
    let verified = Command::new("systemd-analyze")
        .arg("verify")
        .arg(&copy)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&verified.stderr).to_string()
        + &String::from_utf8_lossy(&verified.stdout);
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(verified.status.success(), "{said}");
    assert!(
        !said.contains("baumeister.service"),
        "systemd-analyze has something to say about the unit: {said}"
    );
}

#[test]
fn the_nginx_example_passes_the_header_the_server_reads_and_parses() {
    let config = read("deploy/nginx.conf");
    let env = environment();
    let header = value(&env, "CLIENT_ADDRESS_HEADER");
    assert!(
        config.contains(&format!("proxy_set_header {header} $remote_addr;")),
        "the proxy sets {header}, overwriting what a client sent"
    );
    let bind = value(&env, "BIND");
    assert!(
        config.contains(&format!("server {bind};")),
        "it proxies to BIND"
    );

    let Ok(probe) = Command::new("nginx").arg("-v").output() else {
        eprintln!("nginx is not installed: its example was checked as text only");
        return;
    };
    assert!(probe.status.success());
    // `nginx -t` on the example in a configuration of its own, with a certificate made here.
    let dir = std::env::temp_dir().join(format!("baumeister-nginx-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let made = Command::new("openssl")
        .args([
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
        ])
        .args(["-subj", "/CN=games.example.org", "-keyout"])
        .arg(dir.join("key.pem"))
        .arg("-out")
        .arg(dir.join("cert.pem"))
        .output()
        .expect("openssl runs");
    assert!(made.status.success(), "{made:?}");
    let site = config
        .replace(
            "/etc/letsencrypt/live/games.example.org/fullchain.pem",
            dir.join("cert.pem").to_str().unwrap(),
        )
        .replace(
            "/etc/letsencrypt/live/games.example.org/privkey.pem",
            dir.join("key.pem").to_str().unwrap(),
        );
    std::fs::write(dir.join("site.conf"), site).unwrap();
    let main = format!(
        "pid {dir}/nginx.pid;\nerror_log {dir}/error.log;\nevents {{}}\nhttp {{\n  access_log off;\n  client_body_temp_path {dir};\n  proxy_temp_path {dir};\n  include {dir}/site.conf;\n}}\n",
        dir = dir.display()
    );
    std::fs::write(dir.join("nginx.conf"), main).unwrap();
    let tested = Command::new("nginx")
        .arg("-t")
        .arg("-p")
        .arg(&dir)
        .arg("-c")
        .arg(dir.join("nginx.conf"))
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&tested.stderr).to_string();
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(tested.status.success(), "{said}");
    assert!(said.contains("test is successful"), "{said}");
}
