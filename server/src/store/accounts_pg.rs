//! [`AccountStore`] on PostgreSQL: every call runs on the store's writer task, between two
//! group commits, like the rest of the store.

use super::accounts::{
    AccountRecord, AccountStore, Claimed, PairWindow, RatedLine, RatingRecord, Recorded,
    SolvedLine, MAX_TOKENS_PER_ACCOUNT,
};
use super::error::StoreError;
use super::postgres::{Db, PostgresStore};
use crate::clock::Millis;
use tokio_postgres::Row;

const ACCOUNT: &str = "SELECT id, name, name_key, name_skeleton, hash FROM accounts";

fn account(r: &Row) -> AccountRecord {
    AccountRecord {
        id: r.get(0),
        name: r.get(1),
        key: r.get(2),
        skeleton: r.get::<_, Option<String>>(3).unwrap_or_default(),
        hash: r.get(4),
    }
}

/// Adds a token hash to account `id` and revokes its oldest past the bound (their guest rows
/// too, so a revoked token is nobody at `hello`).
async fn add_token(
    tx: &tokio_postgres::Transaction<'_>,
    id: &str,
    token: &str,
    at: Millis,
) -> Result<(), StoreError> {
    tx.execute(
        "INSERT INTO account_tokens (hash, account, created_at) VALUES ($1, $2, $3)
         ON CONFLICT (hash) DO NOTHING",
        &[&token, &id, &(at as i64)],
    )
    .await?;
    tx.execute(
        "WITH old AS (DELETE FROM account_tokens WHERE account = $1 AND n NOT IN (
             SELECT n FROM account_tokens WHERE account = $1 ORDER BY n DESC LIMIT $2)
             RETURNING hash)
         DELETE FROM players WHERE token IN (SELECT hash FROM old)",
        &[&id, &(MAX_TOKENS_PER_ACCOUNT as i64)],
    )
    .await?;
    Ok(())
}

fn rating(r: &Row, at: usize) -> RatingRecord {
    RatingRecord {
        mu: r.get(at),
        sigma: r.get(at + 1),
        games: u32::try_from(r.get::<_, i64>(at + 2)).unwrap_or(u32::MAX),
    }
}

fn count(r: &Row) -> u32 {
    u32::try_from(r.get::<_, i64>(0)).unwrap_or(u32::MAX)
}

/// The boards' orders (names compare byte by byte, as in SQLite, whatever the database's
/// collation), and how many rows come before a line (its rank less one).
const RATED_ORDER: &str = "r.mu DESC, r.games DESC, a.name_key COLLATE \"C\"";
const RATED_AHEAD: &str = "SELECT COUNT(*) FROM ratings r JOIN accounts a ON a.id = r.account
     WHERE r.game = $1 AND (r.mu > $2 OR (r.mu = $2 AND (r.games > $3
           OR (r.games = $3 AND a.name_key COLLATE \"C\" < $4))))";
const SOLVED_ORDER: &str = "b.clicks, b.at, a.name_key COLLATE \"C\"";
const SOLVED_AHEAD: &str = "SELECT COUNT(*) FROM puzzle_bests b JOIN accounts a ON a.id = b.account
     WHERE b.puzzle = $1 AND (b.clicks < $2 OR (b.clicks = $2 AND (b.at < $3
           OR (b.at = $3 AND a.name_key COLLATE \"C\" < $4))))";

impl Db {
    async fn one_account(
        &mut self,
        column: &str,
        value: &str,
    ) -> Result<Option<AccountRecord>, StoreError> {
        let sql = format!("{ACCOUNT} WHERE {column} = $1");
        let row = self.client.query_opt(&sql, &[&value]).await?;
        Ok(row.as_ref().map(account))
    }

    async fn claim(
        &mut self,
        a: &AccountRecord,
        token: &str,
        at: Millis,
    ) -> Result<Claimed, StoreError> {
        // The unique keys settle a race between two nodes: the insert does nothing then.
        let tx = self.client.transaction().await?;
        let inserted = tx
            .execute(
                "INSERT INTO accounts (id, name, name_key, name_skeleton, hash, created_at)
                 VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING",
                &[&a.id, &a.name, &a.key, &a.skeleton, &a.hash, &(at as i64)],
            )
            .await?;
        if inserted == 1 {
            add_token(&tx, &a.id, token, at).await?;
            tx.commit().await?;
            return Ok(Claimed::Done);
        }
        drop(tx);
        if self.one_account("id", &a.id).await?.is_some() {
            Ok(Claimed::AccountExists)
        } else {
            Ok(Claimed::NameTaken)
        }
    }

    async fn account_by_token(&mut self, token: &str) -> Result<Option<AccountRecord>, StoreError> {
        let sql =
            format!("{ACCOUNT} WHERE id = (SELECT account FROM account_tokens WHERE hash = $1)");
        let row = self.client.query_opt(&sql, &[&token]).await?;
        Ok(row.as_ref().map(account))
    }

    async fn add_token(&mut self, id: &str, token: &str, at: Millis) -> Result<(), StoreError> {
        let tx = self.client.transaction().await?;
        add_token(&tx, id, token, at).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn revoke_tokens(&mut self, id: &str, keep: &str) -> Result<u64, StoreError> {
        let tx = self.client.transaction().await?;
        let gone = tx
            .query(
                "DELETE FROM account_tokens WHERE account = $1 AND hash <> $2 RETURNING hash",
                &[&id, &keep],
            )
            .await?;
        let hashes: Vec<String> = gone.iter().map(|r| r.get(0)).collect();
        tx.execute(
            "DELETE FROM players WHERE token = ANY($1::text[])",
            &[&hashes],
        )
        .await?;
        tx.commit().await?;
        Ok(hashes.len() as u64)
    }

    async fn ratings(
        &mut self,
        game: &str,
        players: &[String],
    ) -> Result<Vec<(String, Option<RatingRecord>)>, StoreError> {
        let rows = self
            .client
            .query(
                "SELECT a.id, r.mu, r.sigma, r.games FROM accounts a
                 LEFT JOIN ratings r ON r.account = a.id AND r.game = $2
                 WHERE a.id = ANY($1::text[])",
                &[&players, &game],
            )
            .await?;
        Ok(rows
            .iter()
            .map(|r| {
                let mu: Option<f64> = r.get(1);
                (r.get(0), mu.map(|_| rating(r, 1)))
            })
            .collect())
    }

    async fn record_ratings(
        &mut self,
        room: &str,
        game: &str,
        ratings: &[(String, RatingRecord)],
        at: Millis,
        window: PairWindow,
    ) -> Result<Recorded, StoreError> {
        let tx = self.client.transaction().await?;
        let accounts: Vec<String> = ratings.iter().map(|(a, _)| a.clone()).collect();
        // The accounts' rows locked, in one order: two games of the same accounts ending at
        // once on two nodes count the window one after the other.
        tx.execute(
            "SELECT id FROM accounts WHERE id = ANY($1) ORDER BY id FOR UPDATE",
            &[&accounts],
        )
        .await?;
        if most_together(&tx, game, &accounts, window.since).await? >= window.most {
            return Ok(Recorded::PairLimit);
        }
        let first = tx
            .execute(
                "UPDATE rooms SET rated_at = $2 WHERE id = $1 AND rated_at IS NULL",
                &[&room, &(at as i64)],
            )
            .await?;
        if first == 0 {
            return Ok(Recorded::RatedAlready);
        }
        for (account, r) in ratings {
            tx.execute(
                "INSERT INTO ratings (account, game, mu, sigma, games) VALUES ($1, $2, $3, $4, 1)
                 ON CONFLICT (account, game) DO UPDATE SET mu = excluded.mu,
                     sigma = excluded.sigma, games = ratings.games + 1",
                &[account, &game, &r.mu, &r.sigma],
            )
            .await?;
            tx.execute(
                "INSERT INTO rated_players (room, game, account, at) VALUES ($1, $2, $3, $4)
                 ON CONFLICT DO NOTHING",
                &[&room, &game, account, &(at as i64)],
            )
            .await?;
        }
        tx.commit().await?;
        Ok(Recorded::Stored)
    }

    async fn rated_board(
        &mut self,
        game: &str,
        after: u32,
        limit: u32,
    ) -> Result<(Vec<RatedLine>, u32), StoreError> {
        let sql = format!(
            "SELECT a.id, a.name, r.mu, r.sigma, r.games FROM ratings r
             JOIN accounts a ON a.id = r.account WHERE r.game = $1
             ORDER BY {RATED_ORDER} LIMIT $2 OFFSET $3"
        );
        let rows = self
            .client
            .query(&sql, &[&game, &i64::from(limit), &i64::from(after)])
            .await?;
        let lines = rows
            .iter()
            .enumerate()
            .map(|(i, r)| RatedLine {
                rank: after + 1 + i as u32,
                id: r.get(0),
                name: r.get(1),
                rating: rating(r, 2),
            })
            .collect();
        let total = self
            .client
            .query_one(
                "SELECT COUNT(*) FROM ratings r JOIN accounts a ON a.id = r.account
                 WHERE r.game = $1",
                &[&game],
            )
            .await?;
        Ok((lines, count(&total)))
    }

    async fn rated_line(
        &mut self,
        game: &str,
        player: &str,
    ) -> Result<Option<RatedLine>, StoreError> {
        let row = self
            .client
            .query_opt(
                "SELECT a.name, a.name_key, r.mu, r.sigma, r.games FROM ratings r
                 JOIN accounts a ON a.id = r.account WHERE r.game = $1 AND a.id = $2",
                &[&game, &player],
            )
            .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let (name, key, rating) = (
            row.get::<_, String>(0),
            row.get::<_, String>(1),
            rating(&row, 2),
        );
        let ahead = self
            .client
            .query_one(
                RATED_AHEAD,
                &[&game, &rating.mu, &i64::from(rating.games), &key],
            )
            .await?;
        Ok(Some(RatedLine {
            rank: count(&ahead) + 1,
            id: player.to_owned(),
            name,
            rating,
        }))
    }

    async fn record_solve(
        &mut self,
        puzzle: &str,
        player: &str,
        clicks: u32,
        at: Millis,
    ) -> Result<(), StoreError> {
        self.client
            .execute(
                "INSERT INTO puzzle_bests (account, puzzle, clicks, at) VALUES ($1, $2, $3, $4)
                 ON CONFLICT (account, puzzle) DO UPDATE SET clicks = excluded.clicks,
                     at = excluded.at WHERE excluded.clicks < puzzle_bests.clicks",
                &[&player, &puzzle, &i64::from(clicks), &(at as i64)],
            )
            .await?;
        Ok(())
    }

    async fn solved_board(
        &mut self,
        puzzle: &str,
        after: u32,
        limit: u32,
    ) -> Result<(Vec<SolvedLine>, u32), StoreError> {
        let sql = format!(
            "SELECT a.id, a.name, b.clicks, b.at FROM puzzle_bests b
             JOIN accounts a ON a.id = b.account WHERE b.puzzle = $1
             ORDER BY {SOLVED_ORDER} LIMIT $2 OFFSET $3"
        );
        let rows = self
            .client
            .query(&sql, &[&puzzle, &i64::from(limit), &i64::from(after)])
            .await?;
        let lines = rows
            .iter()
            .enumerate()
            .map(|(i, r)| SolvedLine {
                rank: after + 1 + i as u32,
                id: r.get(0),
                name: r.get(1),
                clicks: u32::try_from(r.get::<_, i64>(2)).unwrap_or(u32::MAX),
                at: r.get::<_, i64>(3) as Millis,
            })
            .collect();
        let total = self
            .client
            .query_one(
                "SELECT COUNT(*) FROM puzzle_bests b JOIN accounts a ON a.id = b.account
                 WHERE b.puzzle = $1",
                &[&puzzle],
            )
            .await?;
        Ok((lines, count(&total)))
    }

    async fn solved_line(
        &mut self,
        puzzle: &str,
        player: &str,
    ) -> Result<Option<SolvedLine>, StoreError> {
        let row = self
            .client
            .query_opt(
                "SELECT a.name, a.name_key, b.clicks, b.at FROM puzzle_bests b
                 JOIN accounts a ON a.id = b.account WHERE b.puzzle = $1 AND a.id = $2",
                &[&puzzle, &player],
            )
            .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let (name, key): (String, String) = (row.get(0), row.get(1));
        let (clicks, at): (i64, i64) = (row.get(2), row.get(3));
        let ahead = self
            .client
            .query_one(SOLVED_AHEAD, &[&puzzle, &clicks, &at, &key])
            .await?;
        Ok(Some(SolvedLine {
            rank: count(&ahead) + 1,
            id: player.to_owned(),
            name,
            clicks: u32::try_from(clicks).unwrap_or(u32::MAX),
            at: at as Millis,
        }))
    }
}

/// The most rated games of `game` any two of `accounts` played together since `since`.
async fn most_together(
    c: &impl tokio_postgres::GenericClient,
    game: &str,
    accounts: &[String],
    since: Millis,
) -> Result<u32, StoreError> {
    let mut most = 0;
    for (i, a) in accounts.iter().enumerate() {
        for b in &accounts[i + 1..] {
            let row = c
                .query_one(
                    "SELECT COUNT(*) FROM rated_players x JOIN rated_players y ON y.room = x.room
                     WHERE x.account = $1 AND y.account = $2 AND x.game = $3 AND x.at >= $4",
                    &[a, b, &game, &(since as i64)],
                )
                .await?;
            most = most.max(count(&row));
        }
    }
    Ok(most)
}

#[async_trait::async_trait]
impl AccountStore for PostgresStore {
    async fn claim(
        &self,
        account: &AccountRecord,
        token: &str,
        at: Millis,
    ) -> Result<Claimed, StoreError> {
        let (account, token) = (account.clone(), token.to_owned());
        self.call(move |db| Box::pin(async move { db.claim(&account, &token, at).await }))
            .await
    }

    async fn account_by_key(&self, key: &str) -> Result<Option<AccountRecord>, StoreError> {
        let key = key.to_owned();
        self.call(move |db| Box::pin(async move { db.one_account("name_key", &key).await }))
            .await
    }

    async fn account_by_id(&self, id: &str) -> Result<Option<AccountRecord>, StoreError> {
        let id = id.to_owned();
        self.call(move |db| Box::pin(async move { db.one_account("id", &id).await }))
            .await
    }

    async fn account_by_skeleton(
        &self,
        skeleton: &str,
    ) -> Result<Option<AccountRecord>, StoreError> {
        let skeleton = skeleton.to_owned();
        self.call(move |db| {
            Box::pin(async move { db.one_account("name_skeleton", &skeleton).await })
        })
        .await
    }

    async fn account_by_token(&self, token: &str) -> Result<Option<AccountRecord>, StoreError> {
        let token = token.to_owned();
        self.call(move |db| Box::pin(async move { db.account_by_token(&token).await }))
            .await
    }

    async fn add_token(&self, id: &str, token: &str, at: Millis) -> Result<(), StoreError> {
        let (id, token) = (id.to_owned(), token.to_owned());
        self.call(move |db| Box::pin(async move { db.add_token(&id, &token, at).await }))
            .await
    }

    async fn revoke_tokens(&self, id: &str, keep: &str) -> Result<u64, StoreError> {
        let (id, keep) = (id.to_owned(), keep.to_owned());
        self.call(move |db| Box::pin(async move { db.revoke_tokens(&id, &keep).await }))
            .await
    }

    async fn ratings(
        &self,
        game: &str,
        players: &[String],
    ) -> Result<Vec<(String, Option<RatingRecord>)>, StoreError> {
        let (game, players) = (game.to_owned(), players.to_vec());
        self.call(move |db| Box::pin(async move { db.ratings(&game, &players).await }))
            .await
    }

    async fn record_ratings(
        &self,
        room: &str,
        game: &str,
        ratings: &[(String, RatingRecord)],
        at: Millis,
        window: PairWindow,
    ) -> Result<Recorded, StoreError> {
        let (room, game, ratings) = (room.to_owned(), game.to_owned(), ratings.to_vec());
        self.call(move |db| {
            Box::pin(async move { db.record_ratings(&room, &game, &ratings, at, window).await })
        })
        .await
    }

    async fn rated_together(
        &self,
        game: &str,
        players: &[String],
        since: Millis,
    ) -> Result<u32, StoreError> {
        let (game, players) = (game.to_owned(), players.to_vec());
        self.call(move |db| {
            Box::pin(async move { most_together(&db.client, &game, &players, since).await })
        })
        .await
    }

    async fn rated_board(
        &self,
        game: &str,
        after: u32,
        limit: u32,
    ) -> Result<(Vec<RatedLine>, u32), StoreError> {
        let game = game.to_owned();
        self.call(move |db| Box::pin(async move { db.rated_board(&game, after, limit).await }))
            .await
    }

    async fn rated_line(&self, game: &str, player: &str) -> Result<Option<RatedLine>, StoreError> {
        let (game, player) = (game.to_owned(), player.to_owned());
        self.call(move |db| Box::pin(async move { db.rated_line(&game, &player).await }))
            .await
    }

    async fn record_solve(
        &self,
        puzzle: &str,
        player: &str,
        clicks: u32,
        at: Millis,
    ) -> Result<(), StoreError> {
        let (puzzle, player) = (puzzle.to_owned(), player.to_owned());
        self.call(move |db| {
            Box::pin(async move { db.record_solve(&puzzle, &player, clicks, at).await })
        })
        .await
    }

    async fn solved_board(
        &self,
        puzzle: &str,
        after: u32,
        limit: u32,
    ) -> Result<(Vec<SolvedLine>, u32), StoreError> {
        let puzzle = puzzle.to_owned();
        self.call(move |db| Box::pin(async move { db.solved_board(&puzzle, after, limit).await }))
            .await
    }

    async fn solved_line(
        &self,
        puzzle: &str,
        player: &str,
    ) -> Result<Option<SolvedLine>, StoreError> {
        let (puzzle, player) = (puzzle.to_owned(), player.to_owned());
        self.call(move |db| Box::pin(async move { db.solved_line(&puzzle, &player).await }))
            .await
    }

    async fn record_lesson(
        &self,
        id: &str,
        lesson: &str,
        steps: u32,
        at: Millis,
    ) -> Result<u32, StoreError> {
        let (id, lesson) = (id.to_owned(), lesson.to_owned());
        self.call(move |db| {
            Box::pin(async move {
                let row = db
                    .client
                    .query_one(
                        "INSERT INTO lesson_progress (account, lesson, steps, at)
                         VALUES ($1, $2, $3, $4)
                         ON CONFLICT (account, lesson) DO UPDATE
                             SET steps = GREATEST(lesson_progress.steps, excluded.steps),
                                 at = CASE WHEN excluded.steps > lesson_progress.steps
                                      THEN excluded.at ELSE lesson_progress.at END
                         RETURNING steps",
                        &[
                            &id as &(dyn tokio_postgres::types::ToSql + Sync),
                            &lesson,
                            &i64::from(steps),
                            &(at as i64),
                        ],
                    )
                    .await?;
                Ok(count(&row))
            })
        })
        .await
    }

    async fn lesson_progress(&self, id: &str) -> Result<Vec<(String, u32)>, StoreError> {
        let id = id.to_owned();
        self.call(move |db| {
            Box::pin(async move {
                let rows = db
                    .client
                    .query(
                        "SELECT lesson, steps FROM lesson_progress WHERE account = $1
                         ORDER BY lesson COLLATE \"C\"",
                        &[&id],
                    )
                    .await?;
                Ok(rows
                    .iter()
                    .map(|r| {
                        let steps = u32::try_from(r.get::<_, i64>(1)).unwrap_or(u32::MAX);
                        (r.get(0), steps)
                    })
                    .collect())
            })
        })
        .await
    }
}
