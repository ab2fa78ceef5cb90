//! Accounts written by an earlier build, brought up to date on start, in both stores: tokens
//! kept in clear are replaced by their SHA-256 in place (so every player stays logged in: the
//! token he holds hashes to what is stored), an account's one token moves to
//! `account_tokens`, and every account gets its confusable skeleton. Skeletons are computed
//! here, in Rust (neither database has UTS #39); two old accounts whose names turn out to be
//! look-alikes both keep working, the later one's skeleton suffixed with `#` and its id so
//! the unique index holds (a new look-alike of either is still refused).

use super::error::StoreError;
use crate::text::name_skeleton;
use rusqlite::{params, Connection, OptionalExtension};
use std::collections::HashSet;

/// The skeleton each `(id, name)` keeps, oldest first, given the skeletons already `taken`.
fn skeletons(rows: Vec<(String, String)>, mut taken: HashSet<String>) -> Vec<(String, String)> {
    rows.into_iter()
        .map(|(id, name)| {
            let mut skeleton = name_skeleton(&name);
            if !taken.insert(skeleton.clone()) {
                skeleton = format!("{skeleton}#{id}");
                taken.insert(skeleton.clone());
            }
            (id, skeleton)
        })
        .collect()
}

/// SQLite: runs once the schema and its added columns are in place, in one transaction.
pub(super) fn sqlite(conn: &mut Connection) -> Result<(), StoreError> {
    let tx = conn.transaction()?;
    let has_token: bool = tx.query_row(
        "SELECT count(*) > 0 FROM pragma_table_info('accounts') WHERE name = 'token'",
        [],
        |r| r.get(0),
    )?;
    if has_token {
        let old: Vec<(String, String, i64)> = {
            let mut stmt = tx.prepare("SELECT id, token, created_at FROM accounts")?;
            let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
            rows.collect::<Result<_, _>>()?
        };
        for (id, token, at) in &old {
            tx.execute(
                "INSERT OR IGNORE INTO account_tokens (hash, account, created_at)
                 VALUES (?1, ?2, ?3)",
                params![crate::token::hash(token), id, at],
            )?;
        }
        // SQLite cannot drop a UNIQUE column: the table is made again without it.
        tx.execute_batch(
            "CREATE TABLE accounts_new (
                 id TEXT PRIMARY KEY,
                 name TEXT NOT NULL,
                 name_key TEXT NOT NULL UNIQUE,
                 hash TEXT NOT NULL,
                 created_at INTEGER NOT NULL,
                 name_skeleton TEXT
             );
             INSERT INTO accounts_new (id, name, name_key, hash, created_at, name_skeleton)
                 SELECT id, name, name_key, hash, created_at, name_skeleton FROM accounts;
             DROP TABLE accounts;
             ALTER TABLE accounts_new RENAME TO accounts;",
        )?;
    }
    let hashed: Option<i64> = tx
        .query_row(
            "SELECT value FROM meta WHERE key = 'tokens_hashed'",
            [],
            |r| r.get(0),
        )
        .optional()?;
    if hashed.is_none() {
        let tokens: Vec<String> = {
            let mut stmt = tx.prepare("SELECT token FROM players")?;
            let rows = stmt.query_map([], |r| r.get(0))?;
            rows.collect::<Result<_, _>>()?
        };
        for token in &tokens {
            tx.execute(
                "UPDATE players SET token = ?2 WHERE token = ?1",
                params![token, crate::token::hash(token)],
            )?;
        }
        tx.execute(
            "INSERT INTO meta (key, value) VALUES ('tokens_hashed', 1)",
            [],
        )?;
        if !tokens.is_empty() {
            tracing::info!(
                tokens = tokens.len(),
                "store: tokens replaced by their hashes"
            );
        }
    }
    let (missing, taken) = {
        let mut stmt = tx.prepare(
            "SELECT id, name FROM accounts WHERE name_skeleton IS NULL ORDER BY created_at, id",
        )?;
        let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
        let missing: Vec<(String, String)> = rows.collect::<Result<_, _>>()?;
        let mut stmt =
            tx.prepare("SELECT name_skeleton FROM accounts WHERE name_skeleton IS NOT NULL")?;
        let rows = stmt.query_map([], |r| r.get(0))?;
        let taken: HashSet<String> = rows.collect::<Result<_, _>>()?;
        (missing, taken)
    };
    for (id, skeleton) in skeletons(missing, taken) {
        tx.execute(
            "UPDATE accounts SET name_skeleton = ?2 WHERE id = ?1",
            params![id, skeleton],
        )?;
    }
    tx.execute_batch(
        "CREATE UNIQUE INDEX IF NOT EXISTS accounts_skeleton ON accounts (name_skeleton)",
    )?;
    tx.commit()?;
    Ok(())
}

/// PostgreSQL: after the numbered migrations (which hash the tokens in SQL), in their
/// transaction and under their lock, so nodes starting together do it once.
pub(super) async fn postgres(tx: &tokio_postgres::Transaction<'_>) -> Result<(), StoreError> {
    let rows = tx
        .query(
            "SELECT id, name FROM accounts WHERE name_skeleton IS NULL ORDER BY created_at, id",
            &[],
        )
        .await?;
    if !rows.is_empty() {
        let missing = rows.iter().map(|r| (r.get(0), r.get(1))).collect();
        let taken = tx
            .query(
                "SELECT name_skeleton FROM accounts WHERE name_skeleton IS NOT NULL",
                &[],
            )
            .await?
            .iter()
            .map(|r| r.get(0))
            .collect();
        for (id, skeleton) in skeletons(missing, taken) {
            tx.execute(
                "UPDATE accounts SET name_skeleton = $2 WHERE id = $1",
                &[&id, &skeleton],
            )
            .await?;
        }
    }
    tx.batch_execute(
        "CREATE UNIQUE INDEX IF NOT EXISTS accounts_skeleton ON accounts (name_skeleton)",
    )
    .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A database as the build before hashed tokens and skeletons left it.
    const OLD: &str = "
        CREATE TABLE accounts (id TEXT PRIMARY KEY, name TEXT NOT NULL,
            name_key TEXT NOT NULL UNIQUE, hash TEXT NOT NULL, token TEXT NOT NULL UNIQUE,
            created_at INTEGER NOT NULL);
        CREATE TABLE players (token TEXT PRIMARY KEY, id TEXT NOT NULL, name TEXT NOT NULL,
            seen_at INTEGER);
        INSERT INTO accounts VALUES ('p1', 'alice', 'alice', 'h', 'tok-alice', 1);
        INSERT INTO accounts VALUES ('p2', 'al\u{131}ce', 'al\u{131}ce', 'h', 'tok-other', 2);
        INSERT INTO players VALUES ('tok-alice', 'p1', 'alice', 1);
        INSERT INTO players VALUES ('tok-guest', 'p3', 'guest', 1);
    ";

    #[tokio::test]
    async fn an_old_database_keeps_its_players_logged_in_with_hashed_tokens_and_skeletons() {
        use crate::store::{AccountStore, SqliteStore, Store};
        let path = std::env::temp_dir().join(format!("orion-upgrade-{}.db", std::process::id()));
        let path = path.to_string_lossy().to_string();
        let _ = std::fs::remove_file(&path);
        Connection::open(&path).unwrap().execute_batch(OLD).unwrap();
        let s = SqliteStore::open(&path).unwrap();
        // Found by the hash of the token each holds; the clear tokens are gone.
        let alice = s.account_by_token(&crate::token::hash("tok-alice")).await;
        assert_eq!(alice.unwrap().unwrap().id, "p1");
        assert!(s.account_by_token("tok-alice").await.unwrap().is_none());
        let guest = s.player(&crate::token::hash("tok-guest")).await.unwrap();
        assert_eq!(guest.unwrap().id, "p3");
        assert!(s.player("tok-guest").await.unwrap().is_none());
        // Both old look-alikes stay; the name is claimed against newcomers by its skeleton.
        let by_skeleton = s.account_by_skeleton(&name_skeleton("ALICE")).await;
        assert_eq!(by_skeleton.unwrap().unwrap().id, "p1");
        let p2 = s.account_by_id("p2").await.unwrap().unwrap();
        assert_eq!(p2.skeleton, format!("{}#p2", name_skeleton("alice")));
        drop(s);
        // Opening again changes nothing.
        let s = SqliteStore::open(&path).unwrap();
        let again = s.account_by_token(&crate::token::hash("tok-alice")).await;
        assert_eq!(again.unwrap().unwrap().id, "p1");
        drop(s);
        // The database, its WAL and its commit log's segments.
        let dir = std::env::temp_dir();
        let stem = format!("orion-upgrade-{}.db", std::process::id());
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            if entry.file_name().to_string_lossy().starts_with(&stem) {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }
}
