//! [`NotifyStore`] on SQLite: every call runs on the archiver's thread, in order with the
//! group commits, like the rest of the store.

use super::error::StoreError;
use super::notify::{NotifyRecord, NotifyStore, PushRecord, Subscribed};
use super::sqlite::SqliteStore;
use crate::clock::Millis;
use rusqlite::{params, OptionalExtension, Row};

const RECORD: &str = "SELECT account, your_turn, deadline, over, email, push, address, confirmed,
     token_hash, token_expires FROM notify_accounts";

fn record(r: &Row<'_>) -> rusqlite::Result<NotifyRecord> {
    Ok(NotifyRecord {
        account: r.get(0)?,
        your_turn: r.get(1)?,
        deadline: r.get(2)?,
        over: r.get(3)?,
        email: r.get(4)?,
        push: r.get(5)?,
        address: r.get(6)?,
        confirmed: r.get(7)?,
        token_hash: r.get(8)?,
        token_expires: r.get::<_, i64>(9)?.max(0) as Millis,
    })
}

#[async_trait::async_trait]
impl NotifyStore for SqliteStore {
    async fn notify_secret(&self, name: &str, fresh: &str) -> Result<String, StoreError> {
        let (name, fresh) = (name.to_owned(), fresh.to_owned());
        self.call(move |c, _| {
            c.execute(
                "INSERT OR IGNORE INTO notify_secrets (name, value) VALUES (?1, ?2)",
                params![name, fresh],
            )?;
            Ok(c.query_row(
                "SELECT value FROM notify_secrets WHERE name = ?1",
                params![name],
                |r| r.get(0),
            )?)
        })
        .await
    }

    async fn notify_record(&self, account: &str) -> Result<Option<NotifyRecord>, StoreError> {
        let account = account.to_owned();
        self.call(move |c, _| {
            let sql = format!("{RECORD} WHERE account = ?1");
            Ok(c.query_row(&sql, params![account], record).optional()?)
        })
        .await
    }

    async fn put_notify_record(&self, r: &NotifyRecord) -> Result<(), StoreError> {
        let r = r.clone();
        self.call(move |c, _| {
            c.execute(
                "INSERT OR REPLACE INTO notify_accounts (account, your_turn, deadline, over, email,
                     push, address, confirmed, token_hash, token_expires)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
                params![
                    r.account,
                    r.your_turn,
                    r.deadline,
                    r.over,
                    r.email,
                    r.push,
                    r.address,
                    r.confirmed,
                    r.token_hash,
                    r.token_expires as i64
                ],
            )?;
            Ok(())
        })
        .await
    }

    async fn confirm_email(
        &self,
        token_hash: &str,
        now: Millis,
    ) -> Result<Option<(String, String)>, StoreError> {
        let token_hash = token_hash.to_owned();
        self.call(move |c, _| {
            let found: Option<(String, String)> = c
                .query_row(
                    "UPDATE notify_accounts SET confirmed = 1, token_hash = NULL, email = 1
                     WHERE token_hash = ?1 AND token_expires > ?2 AND address IS NOT NULL
                     RETURNING account, address",
                    params![token_hash, now as i64],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .optional()?;
            Ok(found)
        })
        .await
    }

    async fn push_subscriptions(&self, account: &str) -> Result<Vec<PushRecord>, StoreError> {
        let account = account.to_owned();
        self.call(move |c, _| {
            let mut stmt = c.prepare_cached(
                "SELECT endpoint, p256dh, auth FROM push_subscriptions WHERE account = ?1
                 ORDER BY created_at, endpoint",
            )?;
            let rows = stmt.query_map(params![account], |r| {
                Ok(PushRecord {
                    endpoint: r.get(0)?,
                    p256dh: r.get(1)?,
                    auth: r.get(2)?,
                })
            })?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
        .await
    }

    async fn add_push_subscription(
        &self,
        account: &str,
        push: &PushRecord,
        most: usize,
        at: Millis,
    ) -> Result<Subscribed, StoreError> {
        let (account, push) = (account.to_owned(), push.clone());
        self.call(move |c, _| {
            let tx = c.transaction()?;
            let others: i64 = tx.query_row(
                "SELECT COUNT(*) FROM push_subscriptions WHERE account = ?1 AND endpoint <> ?2",
                params![account, push.endpoint],
                |r| r.get(0),
            )?;
            if others as usize >= most {
                return Ok(Subscribed::Full);
            }
            tx.execute(
                "INSERT OR REPLACE INTO push_subscriptions (endpoint, account, p256dh, auth, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
                params![push.endpoint, account, push.p256dh, push.auth, at as i64],
            )?;
            tx.commit()?;
            Ok(Subscribed::Done)
        })
        .await
    }

    async fn remove_push_subscription(
        &self,
        account: &str,
        endpoint: &str,
    ) -> Result<bool, StoreError> {
        let (account, endpoint) = (account.to_owned(), endpoint.to_owned());
        self.call(move |c, _| {
            let n = c.execute(
                "DELETE FROM push_subscriptions WHERE account = ?1 AND endpoint = ?2",
                params![account, endpoint],
            )?;
            Ok(n > 0)
        })
        .await
    }

    async fn drop_push_endpoint(&self, endpoint: &str) -> Result<(), StoreError> {
        let endpoint = endpoint.to_owned();
        self.call(move |c, _| {
            c.execute(
                "DELETE FROM push_subscriptions WHERE endpoint = ?1",
                params![endpoint],
            )?;
            Ok(())
        })
        .await
    }
}
