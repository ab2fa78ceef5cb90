//! The SQLite schema, and the upgrades of a database written by an earlier build.

use super::error::StoreError;
use rusqlite::{params, Connection};

pub(crate) const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS rooms (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    seed INTEGER NOT NULL,
    private INTEGER NOT NULL,
    code TEXT,
    status TEXT NOT NULL DEFAULT 'waiting',
    salt TEXT,
    ended_at INTEGER
);
-- A room's appends `n` to `last_n`, moved here together from the journal (journal.rs): their
-- events as JSON lines, `seq` the last of them, and the actions that caused them as lines of
-- `SEAT AT ACTION`. Rows are numbered as they come, so a move writes at the table's end and
-- only a small index entry per room; a key holding the whole row, as before, made every
-- search through it read the overflow pages of the big rows it passed.
CREATE TABLE IF NOT EXISTS log (
    id INTEGER PRIMARY KEY,
    room TEXT NOT NULL,
    n INTEGER NOT NULL,
    last_n INTEGER NOT NULL,
    seq INTEGER NOT NULL,
    action TEXT,
    events TEXT NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS log_room ON log (room, n);
-- The store's own facts: `store_id`, a random number in every commit log segment's header,
-- so a segment is never replayed into another database.
CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,
    value INTEGER NOT NULL
);
-- Finished public games by the players who sat in them, one row per seat, for `games`.
CREATE TABLE IF NOT EXISTS archive (
    room TEXT NOT NULL,
    game TEXT NOT NULL,
    ended_at INTEGER NOT NULL,
    winner TEXT,
    seat TEXT NOT NULL,
    player TEXT NOT NULL,
    name TEXT NOT NULL,
    PRIMARY KEY (room, seat)
);
CREATE INDEX IF NOT EXISTS archive_player ON archive (player, ended_at);
CREATE INDEX IF NOT EXISTS archive_name ON archive (name, ended_at);
-- `token` is the SHA-256 of the token (`token.rs`), never the token itself.
CREATE TABLE IF NOT EXISTS players (
    token TEXT PRIMARY KEY,
    id TEXT NOT NULL,
    name TEXT NOT NULL,
    seen_at INTEGER
);
-- Claimed names (store/accounts.rs): `name_key` is the name case-folded and normalised, unique
-- so that no two accounts differ only by case or width; `name_skeleton` its confusable
-- skeleton, unique too (its index is made by `accounts_upgrade.rs`, once old rows have one).
-- Never pruned.
CREATE TABLE IF NOT EXISTS accounts (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL UNIQUE,
    hash TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    name_skeleton TEXT
);
-- The SHA-256 of each token an account is reached by (one per device that logged in, oldest
-- revoked past `MAX_TOKENS_PER_ACCOUNT`); `n` orders them.
CREATE TABLE IF NOT EXISTS account_tokens (
    n INTEGER PRIMARY KEY,
    hash TEXT NOT NULL UNIQUE,
    account TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS account_tokens_account ON account_tokens (account, n);
CREATE TABLE IF NOT EXISTS ratings (
    account TEXT NOT NULL,
    game TEXT NOT NULL,
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    games INTEGER NOT NULL,
    PRIMARY KEY (account, game)
);
CREATE INDEX IF NOT EXISTS ratings_board ON ratings (game, mu DESC, games DESC);
CREATE TABLE IF NOT EXISTS puzzle_bests (
    account TEXT NOT NULL,
    puzzle TEXT NOT NULL,
    clicks INTEGER NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (account, puzzle)
);
CREATE INDEX IF NOT EXISTS puzzle_board ON puzzle_bests (puzzle, clicks, at);
-- The accounts of each rated game whose ratings were stored (store/accounts.rs), for the pair
-- window: how many rated games two accounts played together lately. Pruned with the room.
CREATE TABLE IF NOT EXISTS rated_players (
    room TEXT NOT NULL,
    game TEXT NOT NULL,
    account TEXT NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (room, account)
);
CREATE INDEX IF NOT EXISTS rated_players_account ON rated_players (account, game, at);
-- The lesson steps each claimed account has done (lessons/progress.rs): the most of each
-- lesson, and when. Never pruned, like the accounts.
CREATE TABLE IF NOT EXISTS lesson_progress (
    account TEXT NOT NULL,
    lesson TEXT NOT NULL,
    steps INTEGER NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (account, lesson)
);
-- A finished game's record as `/g/ROOM.txt` serves it (records.rs): written once, never
-- changed, pruned with the room.
CREATE TABLE IF NOT EXISTS records (
    room TEXT PRIMARY KEY,
    text TEXT NOT NULL
);
-- Notifications (store/notify.rs): each account's choices and e-mail address, with the
-- SHA-256 of its pending confirmation token (never the token), and its browsers' Web Push
-- subscriptions (an endpoint belongs to one account); the server's own secrets for them (the
-- VAPID key pair, the key unsubscribe links are signed with), made on first start.
CREATE TABLE IF NOT EXISTS notify_accounts (
    account TEXT PRIMARY KEY,
    your_turn BOOLEAN NOT NULL,
    deadline BOOLEAN NOT NULL,
    over BOOLEAN NOT NULL,
    email BOOLEAN NOT NULL,
    push BOOLEAN NOT NULL,
    address TEXT,
    confirmed BOOLEAN NOT NULL,
    token_hash TEXT,
    token_expires BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS notify_accounts_token ON notify_accounts (token_hash);
CREATE TABLE IF NOT EXISTS push_subscriptions (
    endpoint TEXT PRIMARY KEY,
    account TEXT NOT NULL,
    p256dh TEXT NOT NULL,
    auth TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS push_subscriptions_account ON push_subscriptions (account, created_at);
CREATE TABLE IF NOT EXISTS notify_secrets (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
";

/// Columns added after the first release, by table: a database made before them gets them on
/// open (`NULL` in old rows: an old room keeps no salt, an old row is pruned as never seen).
const ADDED_COLUMNS: &[(&str, &str, &str)] = &[
    ("rooms", "salt", "TEXT"),
    ("rooms", "ended_at", "INTEGER"),
    ("players", "seen_at", "INTEGER"),
    ("rooms", "rated_at", "INTEGER"),
    ("accounts", "name_skeleton", "TEXT"),
];

/// Creates the schema, and moves a `log` of one row per append keyed by room (made before
/// chunks) into the new one, in one transaction.
pub(super) fn upgrade_log(conn: &mut Connection, schema: &str) -> Result<(), StoreError> {
    let tx = conn.transaction()?;
    let columns = {
        let mut stmt = tx.prepare("SELECT name FROM pragma_table_info('log')")?;
        let names = stmt.query_map([], |r| r.get::<_, String>(0))?;
        names.collect::<Result<Vec<_>, _>>()?
    };
    let old = !columns.is_empty() && !columns.iter().any(|c| c == "last_n");
    if old {
        tx.execute_batch("ALTER TABLE log RENAME TO log_by_room")?;
    }
    tx.execute_batch(schema)?;
    for (table, column, kind) in ADDED_COLUMNS {
        let has: bool = tx.query_row(
            "SELECT count(*) > 0 FROM pragma_table_info(?1) WHERE name = ?2",
            params![table, column],
            |r| r.get(0),
        )?;
        if !has {
            tx.execute_batch(&format!("ALTER TABLE {table} ADD COLUMN {column} {kind}"))?;
        }
    }
    if old {
        tx.execute_batch(
            "INSERT INTO log (room, n, last_n, seq, action, events)
             SELECT room, n, n, seq, action, events FROM log_by_room ORDER BY room, n;
             DROP TABLE log_by_room;",
        )?;
    }
    tx.commit()?;
    Ok(())
}

/// The store's id (made on first use): every commit log segment names it.
pub(super) fn store_id(conn: &Connection) -> Result<u64, StoreError> {
    let fresh = rand::random::<u64>() >> 1;
    conn.execute(
        "INSERT OR IGNORE INTO meta (key, value) VALUES ('store_id', ?1)",
        params![fresh as i64],
    )?;
    let id: i64 = conn.query_row("SELECT value FROM meta WHERE key = 'store_id'", [], |r| {
        r.get(0)
    })?;
    Ok(id as u64)
}
