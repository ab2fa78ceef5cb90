//! The PostgreSQL schema as numbered migrations, applied by the server on start: each runs
//! once, in order, in one transaction with its number recorded in `schema_version`, under an
//! advisory lock so that nodes starting together migrate one at a time.

use super::error::StoreError;
use tokio_postgres::Client;

/// The migrations, oldest first: `(version, SQL)`. A released one is never edited; a change
/// of schema is a new entry at the end.
pub(super) const MIGRATIONS: &[(i32, &str)] = &[
    (
        1,
        "
    -- A room as created, its status, and when it ended (pruning goes by that). `ord` keeps
    -- the order rooms were made in, which a restart restores them in.
    CREATE TABLE rooms (
        id TEXT PRIMARY KEY,
        ord BIGINT GENERATED ALWAYS AS IDENTITY,
        game TEXT NOT NULL,
        options TEXT NOT NULL,
        seed BIGINT NOT NULL,
        private BOOLEAN NOT NULL,
        code TEXT,
        salt TEXT,
        status TEXT NOT NULL DEFAULT 'waiting',
        ended_at BIGINT
    );
    CREATE INDEX rooms_live ON rooms (ord) WHERE status IN ('waiting', 'playing');
    CREATE INDEX rooms_ended ON rooms (ended_at) WHERE status IN ('finished', 'closed');
    -- One row per append: the events it added as JSON lines (`seq` the last of them, or the
    -- room's seq when it added none) and the action that caused them. The key refuses a
    -- second append with the same number, whichever node sends it.
    CREATE TABLE log (
        room TEXT NOT NULL,
        n BIGINT NOT NULL,
        seq BIGINT NOT NULL,
        seat TEXT,
        acted_at BIGINT,
        action TEXT,
        events TEXT NOT NULL,
        PRIMARY KEY (room, n)
    );
    CREATE TABLE players (
        token TEXT PRIMARY KEY,
        id TEXT NOT NULL,
        name TEXT NOT NULL,
        seen_at BIGINT
    );
    CREATE INDEX players_seen ON players (seen_at);
    ",
    ),
    (
        2,
        "
    -- Finished public games by the players who sat in them, one row per seat, for `games`.
    CREATE TABLE archive (
        room TEXT NOT NULL,
        game TEXT NOT NULL,
        ended_at BIGINT NOT NULL,
        winner TEXT,
        seat TEXT NOT NULL,
        player TEXT NOT NULL,
        name TEXT NOT NULL,
        PRIMARY KEY (room, seat)
    );
    CREATE INDEX archive_player ON archive (player, ended_at);
    CREATE INDEX archive_name ON archive (name, ended_at);
    ",
    ),
    (
        3,
        "
    -- Claimed names, ratings and puzzle bests (store/accounts.rs). `name_key` is the name
    -- case-folded and normalised, unique so that no two accounts look alike. A room is rated
    -- once: `rated_at` is set as its ratings are stored.
    CREATE TABLE accounts (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        name_key TEXT NOT NULL UNIQUE,
        hash TEXT NOT NULL,
        token TEXT NOT NULL UNIQUE,
        created_at BIGINT NOT NULL
    );
    CREATE TABLE ratings (
        account TEXT NOT NULL,
        game TEXT NOT NULL,
        mu DOUBLE PRECISION NOT NULL,
        sigma DOUBLE PRECISION NOT NULL,
        games BIGINT NOT NULL,
        PRIMARY KEY (account, game)
    );
    CREATE INDEX ratings_board ON ratings (game, mu DESC, games DESC);
    CREATE TABLE puzzle_bests (
        account TEXT NOT NULL,
        puzzle TEXT NOT NULL,
        clicks BIGINT NOT NULL,
        at BIGINT NOT NULL,
        PRIMARY KEY (account, puzzle)
    );
    CREATE INDEX puzzle_board ON puzzle_bests (puzzle, clicks, at);
    ALTER TABLE rooms ADD COLUMN rated_at BIGINT;
    ",
    ),
    (
        4,
        "
    -- Which node of a cluster owns each live room (`cluster::lease`): taken when the room
    -- starts there, renewed while the node lives, taken over by another node once it has
    -- expired. `code` finds a private room's owner by its invite code.
    CREATE TABLE room_leases (
        room TEXT PRIMARY KEY,
        node TEXT NOT NULL,
        code TEXT,
        expires_at TIMESTAMPTZ NOT NULL
    );
    CREATE INDEX room_leases_node ON room_leases (node);
    CREATE INDEX room_leases_code ON room_leases (code) WHERE code IS NOT NULL;
    CREATE INDEX room_leases_expiry ON room_leases (expires_at);
    ",
    ),
    (
        5,
        "
    -- Players waiting for a quick match on any node of a cluster (`cluster::matchmaker`):
    -- who, on which node and connection, and when that node last said it is alive.
    CREATE TABLE quick_queue (
        id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        game TEXT NOT NULL,
        players SMALLINT NOT NULL,
        node TEXT NOT NULL,
        conn BIGINT NOT NULL,
        player TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL,
        re TEXT NOT NULL,
        seen_at TIMESTAMPTZ NOT NULL DEFAULT now()
    );
    CREATE INDEX quick_queue_game ON quick_queue (game, players, id);
    ",
    ),
    (
        6,
        "
    -- The accounts of each rated game whose ratings were stored (store/accounts.rs), for the
    -- pair window; and each finished game's record, written once (records.rs). Both pruned
    -- with their room.
    CREATE TABLE rated_players (
        room TEXT NOT NULL,
        game TEXT NOT NULL,
        account TEXT NOT NULL,
        at BIGINT NOT NULL,
        PRIMARY KEY (room, account)
    );
    CREATE INDEX rated_players_account ON rated_players (account, game, at);
    CREATE TABLE records (
        room TEXT PRIMARY KEY,
        text TEXT NOT NULL
    );
    ",
    ),
    (
        7,
        "
    -- Tokens are kept only as their SHA-256 (`token.rs`), hashed here in place so every
    -- player stays logged in; an account holds one per device (`account_tokens`, oldest
    -- revoked past `MAX_TOKENS_PER_ACCOUNT`). Names get their confusable skeleton, filled in
    -- and made unique by `accounts_upgrade.rs`.
    CREATE TABLE account_tokens (
        n BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        hash TEXT NOT NULL UNIQUE,
        account TEXT NOT NULL,
        created_at BIGINT NOT NULL
    );
    CREATE INDEX account_tokens_account ON account_tokens (account, n);
    INSERT INTO account_tokens (hash, account, created_at)
        SELECT encode(sha256(convert_to(token, 'UTF8')), 'hex'), id, created_at FROM accounts
        ORDER BY created_at, id;
    ALTER TABLE accounts DROP COLUMN token;
    ALTER TABLE accounts ADD COLUMN name_skeleton TEXT;
    UPDATE players SET token = encode(sha256(convert_to(token, 'UTF8')), 'hex');
    ",
    ),
    (
        8,
        "
    -- The fencing token of each lease (`store::fence`): it grows whenever a node takes the
    -- room, and every append of a cluster node must name the current one.
    ALTER TABLE room_leases ADD COLUMN epoch BIGINT NOT NULL DEFAULT 0;
    ",
    ),
    (
        9,
        "
    -- The lesson steps each claimed account has done (lessons/progress.rs): the most of each
    -- lesson, and when. Never pruned, like the accounts.
    CREATE TABLE lesson_progress (
        account TEXT NOT NULL,
        lesson TEXT NOT NULL,
        steps BIGINT NOT NULL,
        at BIGINT NOT NULL,
        PRIMARY KEY (account, lesson)
    );
    ",
    ),
    (
        10,
        "
    -- Notifications (store/notify.rs): each account's choices and e-mail address, with the
    -- SHA-256 of its pending confirmation token (never the token), and its browsers' Web Push
    -- subscriptions (an endpoint belongs to one account); the server's own secrets for them (the
    -- VAPID key pair, the key unsubscribe links are signed with), made on first start.
    CREATE TABLE notify_accounts (
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
    CREATE INDEX notify_accounts_token ON notify_accounts (token_hash);
    CREATE TABLE push_subscriptions (
        endpoint TEXT PRIMARY KEY,
        account TEXT NOT NULL,
        p256dh TEXT NOT NULL,
        auth TEXT NOT NULL,
        created_at BIGINT NOT NULL
    );
    CREATE INDEX push_subscriptions_account ON push_subscriptions (account, created_at);
    CREATE TABLE notify_secrets (
        name TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    ",
    ),
    (11, super::moderation_schema::PG_MIGRATION),
];

/// Any number, the same on every node: the advisory lock migrations hold.
const MIGRATION_LOCK: i64 = 0x6f72_696f_6e5f_7067;

/// Brings the database up to the newest schema this build knows; refuses one that a newer
/// build has migrated further.
pub(super) async fn migrate(client: &mut Client) -> Result<(), StoreError> {
    let tx = client.transaction().await?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
        .await?;
    tx.batch_execute(
        "CREATE TABLE IF NOT EXISTS schema_version (
             version INTEGER PRIMARY KEY,
             applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
         )",
    )
    .await?;
    let current: i32 = tx
        .query_one("SELECT COALESCE(MAX(version), 0) FROM schema_version", &[])
        .await?
        .get(0);
    let newest = MIGRATIONS.last().map_or(0, |m| m.0);
    if current > newest {
        return Err(StoreError::Corrupt(format!(
            "the database's schema is version {current}, newer than this server's {newest}"
        )));
    }
    for (version, sql) in MIGRATIONS.iter().filter(|m| m.0 > current) {
        tx.batch_execute(sql).await?;
        tx.execute(
            "INSERT INTO schema_version (version) VALUES ($1)",
            &[version],
        )
        .await?;
        tracing::info!(version, "store: migrated the PostgreSQL schema");
    }
    super::accounts_upgrade::postgres(&tx).await?;
    tx.commit().await?;
    Ok(())
}
