# Sourced by scripts/serve and scripts/test: makes sure a PostgreSQL answers and exports
# DATABASE_URL. Order: an explicit DATABASE_URL; a server on 127.0.0.1:5432; a local Debian
# cluster that only needs starting; Debian's `postgresql` package, installed when run as root.

pg_answers() {
  (exec 3<>/dev/tcp/127.0.0.1/5432) 2>/dev/null
}

wait_for_pg() {
  for _ in $(seq 1 60); do
    pg_answers && return 0
    sleep 0.5
  done
  return 1
}

start_debian_clusters() {
  command -v pg_lsclusters >/dev/null 2>&1 || return 1
  [ "$(id -u)" = 0 ] || return 1
  pg_lsclusters --no-header 2>/dev/null | while read -r version cluster _; do
    pg_ctlcluster --skip-systemctl-redirect "$version" "$cluster" start >/dev/null 2>&1 || true
  done
  wait_for_pg
}

ensure_postgres() {
  if [ -n "${DATABASE_URL:-}" ]; then
    echo "Using DATABASE_URL from the environment."
    return 0
  fi
  if pg_answers; then
    export DATABASE_URL="postgres://postgres@127.0.0.1:5432/baumeister"
    echo "PostgreSQL answers on 127.0.0.1:5432; using $DATABASE_URL (set DATABASE_URL to use another)."
    return 0
  fi
  echo "No PostgreSQL answers on 127.0.0.1:5432."
  if start_debian_clusters; then
    export DATABASE_URL="postgres://postgres@127.0.0.1:5432/baumeister"
    echo "Started the local PostgreSQL cluster; using $DATABASE_URL."
    return 0
  fi
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    cat >&2 <<'MSG'
Cannot provide a PostgreSQL here: this is not root on a Debian-like system.
Do one of these, then run the command again:
  - install and start PostgreSQL: sudo apt-get install -y postgresql && sudo pg_ctlcluster <version> main start
    and let user postgres log in over TCP (e.g. sudo -u postgres psql -c "ALTER USER postgres PASSWORD 'postgres'"),
    then: export DATABASE_URL=postgres://postgres:postgres@127.0.0.1:5432/baumeister
  - or point DATABASE_URL at any PostgreSQL (12 or newer) whose user may create databases.
MSG
    exit 1
  fi
  echo "Installing PostgreSQL from Debian's packages (this takes a minute)…"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null && apt-get install -y -qq postgresql >/dev/null || {
    echo "apt-get could not install postgresql; set DATABASE_URL to a PostgreSQL instead." >&2
    exit 1
  }
  start_debian_clusters || {
    echo "PostgreSQL was installed but does not start; see /var/log/postgresql/." >&2
    exit 1
  }
  # Debian's cluster asks for a password over TCP: give the (local-only) superuser one.
  su postgres -c "psql -q -c \"ALTER USER postgres PASSWORD 'postgres'\"" >/dev/null
  export DATABASE_URL="postgres://postgres:postgres@127.0.0.1:5432/baumeister"
  echo "PostgreSQL is installed and running; using $DATABASE_URL."
}

ensure_cargo() {
  if ! command -v cargo >/dev/null 2>&1; then
    echo "cargo is missing: install the Rust toolchain (https://rustup.rs), then run this again." >&2
    exit 1
  fi
}
