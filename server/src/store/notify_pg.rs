//! [`NotifyStore`] on PostgreSQL: every call runs on the store's writer task, between two
//! group commits, like the rest of the store.

use super::error::StoreError;
use super::notify::{NotifyRecord, NotifyStore, PushRecord, Subscribed};
use super::postgres::PostgresStore;
use crate::clock::Millis;
use tokio_postgres::Row;

const RECORD: &str = "SELECT account, your_turn, deadline, over, email, push, address, confirmed,
     token_hash, token_expires FROM notify_accounts";

fn record(r: &Row) -> NotifyRecord {
    NotifyRecord {
        account: r.get(0),
        your_turn: r.get(1),
        deadline: r.get(2),
        over: r.get(3),
        email: r.get(4),
        push: r.get(5),
        address: r.get(6),
        confirmed: r.get(7),
        token_hash: r.get(8),
        token_expires: r.get::<_, i64>(9).max(0) as Millis,
    }
}

fn push(r: &Row) -> PushRecord {
    PushRecord {
        endpoint: r.get(0),
        p256dh: r.get(1),
        auth: r.get(2),
    }
}

#[async_trait::async_trait]
impl NotifyStore for PostgresStore {
    async fn notify_secret(&self, name: &str, fresh: &str) -> Result<String, StoreError> {
        let (name, fresh) = (name.to_owned(), fresh.to_owned());
        self.call(move |db| {
            Box::pin(async move {
                db.client
                    .execute(
                        "INSERT INTO notify_secrets (name, value) VALUES ($1, $2)
                         ON CONFLICT (name) DO NOTHING",
                        &[&name, &fresh],
                    )
                    .await?;
                let row = db
                    .client
                    .query_one("SELECT value FROM notify_secrets WHERE name = $1", &[&name])
                    .await?;
                Ok(row.get(0))
            })
        })
        .await
    }

    async fn notify_record(&self, account: &str) -> Result<Option<NotifyRecord>, StoreError> {
        let account = account.to_owned();
        self.call(move |db| {
            Box::pin(async move {
                let sql = format!("{RECORD} WHERE account = $1");
                let row = db.client.query_opt(&sql, &[&account]).await?;
                Ok(row.as_ref().map(record))
            })
        })
        .await
    }

    async fn put_notify_record(&self, r: &NotifyRecord) -> Result<(), StoreError> {
        let r = r.clone();
        self.call(move |db| {
            Box::pin(async move {
                db.client
                    .execute(
                        "INSERT INTO notify_accounts (account, your_turn, deadline, over, email,
                             push, address, confirmed, token_hash, token_expires)
                         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
                         ON CONFLICT (account) DO UPDATE SET your_turn = $2, deadline = $3,
                             over = $4, email = $5, push = $6, address = $7, confirmed = $8,
                             token_hash = $9, token_expires = $10",
                        &[
                            &r.account,
                            &r.your_turn,
                            &r.deadline,
                            &r.over,
                            &r.email,
                            &r.push,
                            &r.address,
                            &r.confirmed,
                            &r.token_hash,
                            &(r.token_expires as i64),
                        ],
                    )
                    .await?;
                Ok(())
            })
        })
        .await
    }

    async fn confirm_email(
        &self,
        token_hash: &str,
        now: Millis,
    ) -> Result<Option<(String, String)>, StoreError> {
        let token_hash = token_hash.to_owned();
        self.call(move |db| {
            Box::pin(async move {
                let row = db
                    .client
                    .query_opt(
                        "UPDATE notify_accounts SET confirmed = TRUE, token_hash = NULL,
                             email = TRUE
                         WHERE token_hash = $1 AND token_expires > $2 AND address IS NOT NULL
                         RETURNING account, address",
                        &[&token_hash, &(now as i64)],
                    )
                    .await?;
                Ok(row.map(|r| (r.get(0), r.get(1))))
            })
        })
        .await
    }

    async fn push_subscriptions(&self, account: &str) -> Result<Vec<PushRecord>, StoreError> {
        let account = account.to_owned();
        self.call(move |db| {
            Box::pin(async move {
                let rows = db
                    .client
                    .query(
                        "SELECT endpoint, p256dh, auth FROM push_subscriptions WHERE account = $1
                         ORDER BY created_at, endpoint",
                        &[&account],
                    )
                    .await?;
                Ok(rows.iter().map(push).collect())
            })
        })
        .await
    }

    async fn add_push_subscription(
        &self,
        account: &str,
        sub: &PushRecord,
        most: usize,
        at: Millis,
    ) -> Result<Subscribed, StoreError> {
        let (account, sub) = (account.to_owned(), sub.clone());
        self.call(move |db| {
            Box::pin(async move {
                let tx = db.client.transaction().await?;
                // One account's subscriptions are counted and added one request at a time.
                tx.execute("SELECT pg_advisory_xact_lock(hashtext($1))", &[&account])
                    .await?;
                let others: i64 = tx
                    .query_one(
                        "SELECT COUNT(*) FROM push_subscriptions
                         WHERE account = $1 AND endpoint <> $2",
                        &[&account, &sub.endpoint],
                    )
                    .await?
                    .get(0);
                if others as usize >= most {
                    return Ok(Subscribed::Full);
                }
                tx.execute(
                    "INSERT INTO push_subscriptions (endpoint, account, p256dh, auth, created_at)
                     VALUES ($1, $2, $3, $4, $5)
                     ON CONFLICT (endpoint) DO UPDATE SET account = $2, p256dh = $3, auth = $4,
                         created_at = $5",
                    &[
                        &sub.endpoint,
                        &account,
                        &sub.p256dh,
                        &sub.auth,
                        &(at as i64),
                    ],
                )
                .await?;
                tx.commit().await?;
                Ok(Subscribed::Done)
            })
        })
        .await
    }

    async fn remove_push_subscription(
        &self,
        account: &str,
        endpoint: &str,
    ) -> Result<bool, StoreError> {
        let (account, endpoint) = (account.to_owned(), endpoint.to_owned());
        self.call(move |db| {
            Box::pin(async move {
                let n = db
                    .client
                    .execute(
                        "DELETE FROM push_subscriptions WHERE account = $1 AND endpoint = $2",
                        &[&account, &endpoint],
                    )
                    .await?;
                Ok(n > 0)
            })
        })
        .await
    }

    async fn drop_push_endpoint(&self, endpoint: &str) -> Result<(), StoreError> {
        let endpoint = endpoint.to_owned();
        self.call(move |db| {
            Box::pin(async move {
                db.client
                    .execute(
                        "DELETE FROM push_subscriptions WHERE endpoint = $1",
                        &[&endpoint],
                    )
                    .await?;
                Ok(())
            })
        })
        .await
    }
}
