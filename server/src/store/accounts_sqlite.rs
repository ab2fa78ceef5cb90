//! [`AccountStore`] on SQLite: every call runs on the archiver's thread, in order with the
//! group commits, like the rest of the store.

use super::accounts::{
    AccountRecord, AccountStore, Claimed, PairWindow, RatedLine, RatingRecord, Recorded,
    SolvedLine, MAX_TOKENS_PER_ACCOUNT,
};
use super::error::StoreError;
use super::sqlite::SqliteStore;
use crate::clock::Millis;
use rusqlite::{params, Connection, OptionalExtension, Row};

const ACCOUNT: &str = "SELECT id, name, name_key, name_skeleton, hash FROM accounts";

fn account(r: &Row<'_>) -> rusqlite::Result<AccountRecord> {
    Ok(AccountRecord {
        id: r.get(0)?,
        name: r.get(1)?,
        key: r.get(2)?,
        skeleton: r.get::<_, Option<String>>(3)?.unwrap_or_default(),
        hash: r.get(4)?,
    })
}

/// Adds a token hash to account `id` and revokes its oldest past the bound (their guest rows
/// too, so a revoked token is nobody at `hello`).
fn add_token(c: &Connection, id: &str, token: &str, at: Millis) -> Result<(), StoreError> {
    c.execute(
        "INSERT INTO account_tokens (hash, account, created_at) VALUES (?1, ?2, ?3)
         ON CONFLICT (hash) DO NOTHING",
        params![token, id, at as i64],
    )?;
    let old: Vec<String> = {
        let mut stmt = c.prepare_cached(
            "SELECT hash FROM account_tokens WHERE account = ?1 ORDER BY n DESC LIMIT -1 OFFSET ?2",
        )?;
        let rows = stmt.query_map(params![id, MAX_TOKENS_PER_ACCOUNT as i64], |r| r.get(0))?;
        rows.collect::<Result<_, _>>()?
    };
    for hash in &old {
        revoke(c, hash)?;
    }
    Ok(())
}

/// Forgets one token hash: the account's and the guest row it said hello with.
fn revoke(c: &Connection, hash: &str) -> Result<(), StoreError> {
    c.execute("DELETE FROM account_tokens WHERE hash = ?1", params![hash])?;
    c.execute("DELETE FROM players WHERE token = ?1", params![hash])?;
    Ok(())
}

fn one_account(
    c: &Connection,
    column: &str,
    value: &str,
) -> Result<Option<AccountRecord>, StoreError> {
    let sql = format!("{ACCOUNT} WHERE {column} = ?1");
    Ok(c.query_row(&sql, params![value], account).optional()?)
}

/// The order of a game's board, and how many rows come before a line (its rank less one).
const RATED_ORDER: &str = "r.mu DESC, r.games DESC, a.name_key";
const RATED_AHEAD: &str = "SELECT COUNT(*) FROM ratings r JOIN accounts a ON a.id = r.account
     WHERE r.game = ?1 AND (r.mu > ?2 OR (r.mu = ?2 AND (r.games > ?3
           OR (r.games = ?3 AND a.name_key < ?4))))";
const SOLVED_ORDER: &str = "b.clicks, b.at, a.name_key";
const SOLVED_AHEAD: &str = "SELECT COUNT(*) FROM puzzle_bests b JOIN accounts a ON a.id = b.account
     WHERE b.puzzle = ?1 AND (b.clicks < ?2 OR (b.clicks = ?2 AND (b.at < ?3
           OR (b.at = ?3 AND a.name_key < ?4))))";

fn rating(r: &Row<'_>, at: usize) -> rusqlite::Result<RatingRecord> {
    Ok(RatingRecord {
        mu: r.get(at)?,
        sigma: r.get(at + 1)?,
        games: r.get(at + 2)?,
    })
}

/// The most rated games of `game` any two of `accounts` played together since `since`.
fn most_together(
    c: &Connection,
    game: &str,
    accounts: &[String],
    since: Millis,
) -> Result<u32, StoreError> {
    let mut stmt = c.prepare_cached(
        "SELECT COUNT(*) FROM rated_players x JOIN rated_players y ON y.room = x.room
         WHERE x.account = ?1 AND y.account = ?2 AND x.game = ?3 AND x.at >= ?4",
    )?;
    let mut most = 0;
    for (i, a) in accounts.iter().enumerate() {
        for b in &accounts[i + 1..] {
            let n: u32 = stmt.query_row(params![a, b, game, since as i64], |r| r.get(0))?;
            most = most.max(n);
        }
    }
    Ok(most)
}

#[async_trait::async_trait]
impl AccountStore for SqliteStore {
    async fn claim(
        &self,
        account: &AccountRecord,
        token: &str,
        at: Millis,
    ) -> Result<Claimed, StoreError> {
        let (account, token) = (account.clone(), token.to_owned());
        self.call(move |c, _| {
            let tx = c.transaction()?;
            if one_account(&tx, "id", &account.id)?.is_some() {
                return Ok(Claimed::AccountExists);
            }
            if one_account(&tx, "name_key", &account.key)?.is_some()
                || one_account(&tx, "name_skeleton", &account.skeleton)?.is_some()
            {
                return Ok(Claimed::NameTaken);
            }
            tx.execute(
                "INSERT INTO accounts (id, name, name_key, name_skeleton, hash, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![
                    account.id,
                    account.name,
                    account.key,
                    account.skeleton,
                    account.hash,
                    at as i64
                ],
            )?;
            add_token(&tx, &account.id, &token, at)?;
            tx.commit()?;
            Ok(Claimed::Done)
        })
        .await
    }

    async fn account_by_key(&self, key: &str) -> Result<Option<AccountRecord>, StoreError> {
        let key = key.to_owned();
        self.call(move |c, _| one_account(c, "name_key", &key))
            .await
    }

    async fn account_by_skeleton(
        &self,
        skeleton: &str,
    ) -> Result<Option<AccountRecord>, StoreError> {
        let skeleton = skeleton.to_owned();
        self.call(move |c, _| one_account(c, "name_skeleton", &skeleton))
            .await
    }

    async fn account_by_id(&self, id: &str) -> Result<Option<AccountRecord>, StoreError> {
        let id = id.to_owned();
        self.call(move |c, _| one_account(c, "id", &id)).await
    }

    async fn account_by_token(&self, token: &str) -> Result<Option<AccountRecord>, StoreError> {
        let token = token.to_owned();
        self.call(move |c, _| {
            let sql = format!(
                "{ACCOUNT} WHERE id = (SELECT account FROM account_tokens WHERE hash = ?1)"
            );
            Ok(c.query_row(&sql, params![token], account).optional()?)
        })
        .await
    }

    async fn add_token(&self, id: &str, token: &str, at: Millis) -> Result<(), StoreError> {
        let (id, token) = (id.to_owned(), token.to_owned());
        self.call(move |c, _| {
            let tx = c.transaction()?;
            add_token(&tx, &id, &token, at)?;
            tx.commit()?;
            Ok(())
        })
        .await
    }

    async fn revoke_tokens(&self, id: &str, keep: &str) -> Result<u64, StoreError> {
        let (id, keep) = (id.to_owned(), keep.to_owned());
        self.call(move |c, _| {
            let tx = c.transaction()?;
            let gone: Vec<String> = {
                let mut stmt = tx
                    .prepare("SELECT hash FROM account_tokens WHERE account = ?1 AND hash <> ?2")?;
                let rows = stmt.query_map(params![id, keep], |r| r.get(0))?;
                rows.collect::<Result<_, _>>()?
            };
            for hash in &gone {
                revoke(&tx, hash)?;
            }
            tx.commit()?;
            Ok(gone.len() as u64)
        })
        .await
    }

    async fn ratings(
        &self,
        game: &str,
        players: &[String],
    ) -> Result<Vec<(String, Option<RatingRecord>)>, StoreError> {
        let (game, players) = (game.to_owned(), players.to_vec());
        self.call(move |c, _| {
            let mut stmt = c.prepare_cached(
                "SELECT a.id, r.mu, r.sigma, r.games FROM accounts a
                 LEFT JOIN ratings r ON r.account = a.id AND r.game = ?2 WHERE a.id = ?1",
            )?;
            let mut out = Vec::new();
            for p in &players {
                let row = stmt
                    .query_row(params![p, game], |r| {
                        let mu: Option<f64> = r.get(1)?;
                        Ok((
                            r.get::<_, String>(0)?,
                            mu.map(|_| rating(r, 1)).transpose()?,
                        ))
                    })
                    .optional()?;
                out.extend(row);
            }
            Ok(out)
        })
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
        self.call(move |c, _| {
            let tx = c.transaction()?;
            let accounts: Vec<String> = ratings.iter().map(|(a, _)| a.clone()).collect();
            if most_together(&tx, &game, &accounts, window.since)? >= window.most {
                return Ok(Recorded::PairLimit);
            }
            let first = tx.execute(
                "UPDATE rooms SET rated_at = ?2 WHERE id = ?1 AND rated_at IS NULL",
                params![room, at as i64],
            )?;
            if first == 0 {
                return Ok(Recorded::RatedAlready);
            }
            for (account, r) in &ratings {
                tx.execute(
                    "INSERT INTO ratings (account, game, mu, sigma, games) VALUES (?1, ?2, ?3, ?4, 1)
                     ON CONFLICT (account, game) DO UPDATE SET mu = excluded.mu,
                         sigma = excluded.sigma, games = ratings.games + 1",
                    params![account, game, r.mu, r.sigma],
                )?;
                tx.execute(
                    "INSERT OR IGNORE INTO rated_players (room, game, account, at)
                     VALUES (?1, ?2, ?3, ?4)",
                    params![room, game, account, at as i64],
                )?;
            }
            tx.commit()?;
            Ok(Recorded::Stored)
        }).await
    }

    async fn rated_together(
        &self,
        game: &str,
        players: &[String],
        since: Millis,
    ) -> Result<u32, StoreError> {
        let (game, players) = (game.to_owned(), players.to_vec());
        self.call(move |c, _| most_together(c, &game, &players, since))
            .await
    }

    async fn rated_board(
        &self,
        game: &str,
        after: u32,
        limit: u32,
    ) -> Result<(Vec<RatedLine>, u32), StoreError> {
        let game = game.to_owned();
        self.call(move |c, _| {
            let sql = format!(
                "SELECT a.id, a.name, r.mu, r.sigma, r.games FROM ratings r
                 JOIN accounts a ON a.id = r.account WHERE r.game = ?1
                 ORDER BY {RATED_ORDER} LIMIT ?2 OFFSET ?3"
            );
            let mut stmt = c.prepare_cached(&sql)?;
            let rows = stmt.query_map(params![game, limit, after], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    rating(r, 2)?,
                ))
            })?;
            let mut lines = Vec::new();
            for (i, row) in rows.enumerate() {
                let (id, name, rating) = row?;
                let rank = after + 1 + i as u32;
                lines.push(RatedLine {
                    rank,
                    id,
                    name,
                    rating,
                });
            }
            let total: u32 = c.query_row(
                "SELECT COUNT(*) FROM ratings r JOIN accounts a ON a.id = r.account
                 WHERE r.game = ?1",
                params![game],
                |r| r.get(0),
            )?;
            Ok((lines, total))
        })
        .await
    }

    async fn rated_line(&self, game: &str, player: &str) -> Result<Option<RatedLine>, StoreError> {
        let (game, player) = (game.to_owned(), player.to_owned());
        self.call(move |c, _| {
            let row = c
                .query_row(
                    "SELECT a.name, a.name_key, r.mu, r.sigma, r.games FROM ratings r
                     JOIN accounts a ON a.id = r.account WHERE r.game = ?1 AND a.id = ?2",
                    params![game, player],
                    |r| {
                        Ok((
                            r.get::<_, String>(0)?,
                            r.get::<_, String>(1)?,
                            rating(r, 2)?,
                        ))
                    },
                )
                .optional()?;
            let Some((name, key, rating)) = row else {
                return Ok(None);
            };
            let ahead: u32 = c.query_row(
                RATED_AHEAD,
                params![game, rating.mu, rating.games, key],
                |r| r.get(0),
            )?;
            Ok(Some(RatedLine {
                rank: ahead + 1,
                id: player,
                name,
                rating,
            }))
        })
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
        self.call(move |c, _| {
            c.execute(
                "INSERT INTO puzzle_bests (account, puzzle, clicks, at) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (account, puzzle) DO UPDATE SET clicks = excluded.clicks,
                     at = excluded.at WHERE excluded.clicks < puzzle_bests.clicks",
                params![player, puzzle, clicks, at as i64],
            )?;
            Ok(())
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
        self.call(move |c, _| {
            let sql = format!(
                "SELECT a.id, a.name, b.clicks, b.at FROM puzzle_bests b
                 JOIN accounts a ON a.id = b.account WHERE b.puzzle = ?1
                 ORDER BY {SOLVED_ORDER} LIMIT ?2 OFFSET ?3"
            );
            let mut stmt = c.prepare_cached(&sql)?;
            let rows = stmt.query_map(params![puzzle, limit, after], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, u32>(2)?,
                    r.get::<_, i64>(3)?,
                ))
            })?;
            let mut lines = Vec::new();
            for (i, row) in rows.enumerate() {
                let (id, name, clicks, at) = row?;
                lines.push(SolvedLine {
                    rank: after + 1 + i as u32,
                    id,
                    name,
                    clicks,
                    at: at as Millis,
                });
            }
            let total: u32 = c.query_row(
                "SELECT COUNT(*) FROM puzzle_bests b JOIN accounts a ON a.id = b.account
                 WHERE b.puzzle = ?1",
                params![puzzle],
                |r| r.get(0),
            )?;
            Ok((lines, total))
        })
        .await
    }

    async fn solved_line(
        &self,
        puzzle: &str,
        player: &str,
    ) -> Result<Option<SolvedLine>, StoreError> {
        let (puzzle, player) = (puzzle.to_owned(), player.to_owned());
        self.call(move |c, _| {
            let row = c
                .query_row(
                    "SELECT a.name, a.name_key, b.clicks, b.at FROM puzzle_bests b
                     JOIN accounts a ON a.id = b.account WHERE b.puzzle = ?1 AND a.id = ?2",
                    params![puzzle, player],
                    |r| {
                        Ok((
                            r.get::<_, String>(0)?,
                            r.get::<_, String>(1)?,
                            r.get::<_, u32>(2)?,
                            r.get::<_, i64>(3)?,
                        ))
                    },
                )
                .optional()?;
            let Some((name, key, clicks, at)) = row else {
                return Ok(None);
            };
            let ahead: u32 =
                c.query_row(SOLVED_AHEAD, params![puzzle, clicks, at, key], |r| r.get(0))?;
            Ok(Some(SolvedLine {
                rank: ahead + 1,
                id: player,
                name,
                clicks,
                at: at as Millis,
            }))
        })
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
        self.call(move |c, _| {
            c.execute(
                "INSERT INTO lesson_progress (account, lesson, steps, at) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT (account, lesson) DO UPDATE SET steps = excluded.steps,
                     at = excluded.at WHERE excluded.steps > lesson_progress.steps",
                params![id, lesson, steps, at as i64],
            )?;
            Ok(c.query_row(
                "SELECT steps FROM lesson_progress WHERE account = ?1 AND lesson = ?2",
                params![id, lesson],
                |r| r.get(0),
            )?)
        })
        .await
    }

    async fn lesson_progress(&self, id: &str) -> Result<Vec<(String, u32)>, StoreError> {
        let id = id.to_owned();
        self.call(move |c, _| {
            let mut stmt = c.prepare_cached(
                "SELECT lesson, steps FROM lesson_progress WHERE account = ?1 ORDER BY lesson",
            )?;
            let rows = stmt.query_map(params![id], |r| Ok((r.get(0)?, r.get(1)?)))?;
            Ok(rows.collect::<Result<_, _>>()?)
        })
        .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{PlayerRecord, RoomRecord, Store};

    fn account(id: &str, name: &str) -> AccountRecord {
        AccountRecord {
            id: id.into(),
            name: name.into(),
            key: crate::text::name_key(name),
            skeleton: crate::text::name_skeleton(name),
            hash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA".into(),
        }
    }

    fn room(id: &str) -> RoomRecord {
        RoomRecord {
            id: id.into(),
            game: "hydra-2".into(),
            options: "{}".into(),
            seed: 1,
            private: false,
            code: None,
            salt: None,
        }
    }

    fn r(mu: f64) -> RatingRecord {
        RatingRecord {
            mu,
            sigma: 5.0,
            games: 1,
        }
    }

    #[tokio::test]
    async fn a_name_is_claimed_once_in_any_case_and_a_player_claims_once() {
        let s = SqliteStore::open(":memory:").unwrap();
        assert_eq!(
            s.claim(&account("p1", "Alice"), "t-p1", 1).await.unwrap(),
            Claimed::Done
        );
        assert_eq!(
            s.claim(&account("p2", "ALICE"), "t-p2", 2).await.unwrap(),
            Claimed::NameTaken
        );
        assert_eq!(
            s.claim(&account("p1", "Bob"), "t-p1b", 3).await.unwrap(),
            Claimed::AccountExists
        );
        let found = s
            .account_by_key(&crate::text::name_key("aLiCe"))
            .await
            .unwrap()
            .unwrap();
        assert_eq!((found.id.as_str(), found.name.as_str()), ("p1", "Alice"));
        assert_eq!(s.account_by_token("t-p1").await.unwrap().unwrap().id, "p1");
        assert!(s.account_by_id("p2").await.unwrap().is_none());
        // A look-alike (Cyrillic а) is the same name.
        assert_eq!(
            s.claim(&account("p3", "\u{430}lice"), "t-p3", 4)
                .await
                .unwrap(),
            Claimed::NameTaken
        );
    }

    #[tokio::test]
    async fn an_account_holds_a_bounded_number_of_tokens_and_can_revoke_the_others() {
        let s = SqliteStore::open(":memory:").unwrap();
        s.claim(&account("p1", "ann"), "t0", 1).await.unwrap();
        let me = PlayerRecord {
            id: "p1".into(),
            name: "ann".into(),
        };
        for i in 1..=MAX_TOKENS_PER_ACCOUNT {
            s.add_token("p1", &format!("t{i}"), 1).await.unwrap();
            s.put_player(&format!("t{i}"), &me, 1).await.unwrap();
        }
        // Eleven made: the first is gone.
        assert!(s.account_by_token("t0").await.unwrap().is_none());
        assert!(s.account_by_token("t1").await.unwrap().is_some());
        assert_eq!(s.revoke_tokens("p1", "t5").await.unwrap(), 9);
        assert!(s.account_by_token("t5").await.unwrap().is_some());
        for gone in ["t1", "t10"] {
            assert!(s.account_by_token(gone).await.unwrap().is_none());
            assert!(
                s.player(gone).await.unwrap().is_none(),
                "{gone}'s guest row"
            );
        }
    }

    #[tokio::test]
    async fn a_room_is_rated_once_and_games_are_counted() {
        let s = SqliteStore::open(":memory:").unwrap();
        s.claim(&account("p1", "a"), "t-p1", 1).await.unwrap();
        s.create_room(&room("r1")).await.unwrap();
        let ids = ["p1".to_string(), "guest".to_string()];
        assert_eq!(
            s.ratings("hydra-2", &ids).await.unwrap(),
            vec![("p1".into(), None)]
        );
        let all = PairWindow::UNBOUNDED;
        let once = |room: &'static str, mu: f64, at: Millis| {
            let s = &s;
            async move {
                s.record_ratings(room, "hydra-2", &[("p1".into(), r(mu))], at, all)
                    .await
                    .unwrap()
            }
        };
        assert_eq!(once("r1", 27.0, 5).await, Recorded::Stored);
        assert_eq!(once("r1", 40.0, 6).await, Recorded::RatedAlready);
        assert_eq!(once("nowhere", 40.0, 6).await, Recorded::RatedAlready);
        s.create_room(&room("r2")).await.unwrap();
        assert_eq!(once("r2", 26.0, 7).await, Recorded::Stored);
        let got = s.ratings("hydra-2", &ids).await.unwrap();
        assert_eq!(got[0].1.unwrap().mu, 26.0);
        assert_eq!(got[0].1.unwrap().games, 2);
        assert_eq!(
            s.ratings("libra", &ids).await.unwrap(),
            vec![("p1".into(), None)]
        );
    }

    #[tokio::test]
    async fn two_accounts_count_at_most_the_windows_games_together() {
        let s = SqliteStore::open(":memory:").unwrap();
        for (id, name) in [("p1", "a"), ("p2", "b"), ("p3", "c")] {
            s.claim(&account(id, name), &format!("t-{id}"), 1)
                .await
                .unwrap();
        }
        let window = PairWindow { since: 10, most: 2 };
        let game = |p: &str, q: &str, mu| vec![(p.to_string(), r(mu)), (q.to_string(), r(mu))];
        for i in 1..=5 {
            s.create_room(&room(&format!("r{i}"))).await.unwrap();
        }
        let rate = |room: &'static str, players: Vec<(String, RatingRecord)>, at| {
            let s = &s;
            async move {
                (s.record_ratings(room, "hydra-2", &players, at, window)
                    .await)
                    .unwrap()
            }
        };
        // One game before the window, two in it: the third in it is not stored.
        assert_eq!(
            rate("r1", game("p1", "p2", 26.0), 5).await,
            Recorded::Stored
        );
        assert_eq!(
            rate("r2", game("p1", "p2", 27.0), 10).await,
            Recorded::Stored
        );
        assert_eq!(
            rate("r3", game("p2", "p1", 28.0), 11).await,
            Recorded::Stored
        );
        assert_eq!(
            rate("r4", game("p1", "p2", 29.0), 12).await,
            Recorded::PairLimit
        );
        let ids = ["p1".to_string(), "p2".to_string(), "p3".to_string()];
        assert_eq!(s.rated_together("hydra-2", &ids, 10).await.unwrap(), 2);
        assert_eq!(s.rated_together("hydra-2", &ids, 0).await.unwrap(), 3);
        assert_eq!(s.rated_together("libra", &ids, 0).await.unwrap(), 0);
        let got = s.ratings("hydra-2", &ids[..1]).await.unwrap();
        assert_eq!(got[0].1.map(|r| (r.mu, r.games)), Some((28.0, 3)));
        // Another pair is not bounded by this one's games.
        assert_eq!(
            rate("r5", game("p1", "p3", 30.0), 13).await,
            Recorded::Stored
        );
    }

    #[tokio::test]
    async fn boards_page_in_order_and_place_anyone_on_them() {
        let s = SqliteStore::open(":memory:").unwrap();
        for i in 0..7u32 {
            let id = format!("p{i}");
            s.claim(&account(&id, &format!("n{i}")), &format!("t-{id}"), 1)
                .await
                .unwrap();
            let room_id = format!("r{i}");
            s.create_room(&room(&room_id)).await.unwrap();
            let mu = 20.0 + f64::from(i % 4);
            let all = PairWindow::UNBOUNDED;
            s.record_ratings(&room_id, "hydra-2", &[(id.clone(), r(mu))], 2, all)
                .await
                .unwrap();
            s.record_solve("aquila", &id, 30 - i, u64::from(i))
                .await
                .unwrap();
        }
        // μ 23 (p3), 22 (p2, p6), 21 (p1, p5), 20 (p0, p4): equal μ and games by name.
        let (first, total) = s.rated_board("hydra-2", 0, 3).await.unwrap();
        assert_eq!(total, 7);
        let ids: Vec<&str> = first.iter().map(|l| l.id.as_str()).collect();
        assert_eq!(ids, ["p3", "p2", "p6"]);
        let (next, _) = s.rated_board("hydra-2", 3, 3).await.unwrap();
        let ids: Vec<&str> = next.iter().map(|l| l.id.as_str()).collect();
        assert_eq!(ids, ["p1", "p5", "p0"]);
        assert_eq!(next[0].rank, 4);
        let (last, _) = s.rated_board("hydra-2", 6, 3).await.unwrap();
        assert_eq!(last.len(), 1);
        assert_eq!(
            s.rated_line("hydra-2", "p5").await.unwrap().unwrap().rank,
            5
        );
        assert!(s.rated_line("hydra-2", "nobody").await.unwrap().is_none());
        // Fewer clicks only replace a best; a worse solve leaves it and its date.
        s.record_solve("aquila", "p0", 31, 99).await.unwrap();
        s.record_solve("aquila", "p1", 24, 100).await.unwrap();
        let (top, total) = s.solved_board("aquila", 0, 2).await.unwrap();
        assert_eq!(total, 7);
        // Equal clicks: who got there first goes first.
        assert_eq!(
            (top[0].id.as_str(), top[0].clicks, top[0].at),
            ("p6", 24, 6)
        );
        assert_eq!(
            (top[1].id.as_str(), top[1].clicks, top[1].at),
            ("p1", 24, 100)
        );
        let p0 = s.solved_line("aquila", "p0").await.unwrap().unwrap();
        assert_eq!((p0.rank, p0.clicks, p0.at), (7, 30, 0));
    }

    #[tokio::test]
    async fn lesson_progress_keeps_the_most_steps_per_account_and_lesson() {
        let s = SqliteStore::open(":memory:").unwrap();
        assert_eq!(s.record_lesson("p1", "hydra-2", 3, 1).await.unwrap(), 3);
        assert_eq!(s.record_lesson("p1", "hydra-2", 2, 2).await.unwrap(), 3);
        assert_eq!(s.record_lesson("p1", "basics", 5, 3).await.unwrap(), 5);
        assert_eq!(s.record_lesson("p2", "hydra-2", 1, 4).await.unwrap(), 1);
        assert_eq!(
            s.lesson_progress("p1").await.unwrap(),
            vec![("basics".to_string(), 5), ("hydra-2".to_string(), 3)]
        );
        assert!(s.lesson_progress("p3").await.unwrap().is_empty());
    }
}
