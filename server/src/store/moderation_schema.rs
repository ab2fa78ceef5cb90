//! The moderation tables (`moderation.rs`), for each store: SQLite's, made on open, and
//! PostgreSQL's, its migration 11. Apart from the stores' code so that the schema modules
//! (`sqlite/open.rs`, `pg_schema.rs`) need nothing of it but the text.

/// SQLite's moderation tables, made on open if missing.
pub(super) const SQLITE: &str = "
CREATE TABLE IF NOT EXISTS moderators (
    account TEXT PRIMARY KEY,
    at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS sanctions (
    kind TEXT NOT NULL,
    target TEXT NOT NULL,
    until INTEGER,
    reason TEXT NOT NULL,
    by_player TEXT NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (kind, target)
);
CREATE TABLE IF NOT EXISTS reports (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    reporter TEXT NOT NULL,
    reporter_name TEXT NOT NULL,
    player TEXT NOT NULL,
    room TEXT,
    reason TEXT NOT NULL,
    at INTEGER NOT NULL,
    resolved_at INTEGER
);
CREATE INDEX IF NOT EXISTS reports_open ON reports (id) WHERE resolved_at IS NULL;
CREATE INDEX IF NOT EXISTS reports_by ON reports (reporter, at);
CREATE TABLE IF NOT EXISTS audit (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    moderator TEXT NOT NULL,
    moderator_name TEXT NOT NULL,
    action TEXT NOT NULL,
    target TEXT NOT NULL,
    detail TEXT,
    reason TEXT NOT NULL,
    at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS blocks (
    account TEXT NOT NULL,
    player TEXT NOT NULL,
    name TEXT NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (account, player)
);
CREATE TABLE IF NOT EXISTS redactions (
    room TEXT NOT NULL,
    seq INTEGER NOT NULL,
    at INTEGER NOT NULL,
    PRIMARY KEY (room, seq)
);
";

/// PostgreSQL's migration 11: the moderation tables.
pub(super) const PG_MIGRATION: &str = "
    -- Moderation (store/moderation.rs): accounts an administrator made moderators; the
    -- sanctions in force (kind 'ban' or 'mute' of a player id, 'address' of a banned guest's
    -- address; until NULL: for good); players' reports, open until resolved; the moderators'
    -- audit log; each account's blocked players; chat lines a moderator deleted.
    CREATE TABLE moderators (
        account TEXT PRIMARY KEY,
        at BIGINT NOT NULL
    );
    CREATE TABLE sanctions (
        kind TEXT NOT NULL,
        target TEXT NOT NULL,
        until BIGINT,
        reason TEXT NOT NULL,
        by_player TEXT NOT NULL,
        at BIGINT NOT NULL,
        PRIMARY KEY (kind, target)
    );
    CREATE TABLE reports (
        id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        reporter TEXT NOT NULL,
        reporter_name TEXT NOT NULL,
        player TEXT NOT NULL,
        room TEXT,
        reason TEXT NOT NULL,
        at BIGINT NOT NULL,
        resolved_at BIGINT
    );
    CREATE INDEX reports_open ON reports (id) WHERE resolved_at IS NULL;
    CREATE INDEX reports_by ON reports (reporter, at);
    CREATE TABLE audit (
        id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        moderator TEXT NOT NULL,
        moderator_name TEXT NOT NULL,
        action TEXT NOT NULL,
        target TEXT NOT NULL,
        detail TEXT,
        reason TEXT NOT NULL,
        at BIGINT NOT NULL
    );
    CREATE TABLE blocks (
        account TEXT NOT NULL,
        player TEXT NOT NULL,
        name TEXT NOT NULL,
        at BIGINT NOT NULL,
        PRIMARY KEY (account, player)
    );
    CREATE TABLE redactions (
        room TEXT NOT NULL,
        seq BIGINT NOT NULL,
        at BIGINT NOT NULL,
        PRIMARY KEY (room, seq)
    );
";
