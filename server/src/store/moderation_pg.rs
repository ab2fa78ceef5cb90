//! [`ModerationStore`] on PostgreSQL (its tables: migration 11, `moderation_schema.rs`), every
//! call run on the store's writer task like the rest of the store.

use super::error::StoreError;
use super::moderation::{
    AuditEntry, BlockedPlayer, ModerationStore, NewReport, ReportEntry, SanctionKind,
    SanctionRecord,
};
use super::postgres::PostgresStore;
use crate::clock::Millis;
use tokio_postgres::Row;

fn ms(v: i64) -> Millis {
    v.max(0) as Millis
}

fn sanction(r: &Row) -> SanctionRecord {
    SanctionRecord {
        target: r.get(0),
        until: r.get::<_, Option<i64>>(1).map(ms),
        reason: r.get(2),
        by: r.get(3),
        at: ms(r.get(4)),
    }
}

fn report(r: &Row) -> ReportEntry {
    ReportEntry {
        id: ms(r.get(0)),
        reporter: r.get(1),
        reporter_name: r.get(2),
        player: r.get(3),
        room: r.get(4),
        reason: r.get(5),
        at: ms(r.get(6)),
    }
}

fn audit(r: &Row) -> AuditEntry {
    AuditEntry {
        id: ms(r.get(0)),
        moderator: r.get(1),
        moderator_name: r.get(2),
        action: r.get(3),
        target: r.get(4),
        detail: r.get(5),
        reason: r.get(6),
        at: ms(r.get(7)),
    }
}

#[async_trait::async_trait]
impl ModerationStore for PostgresStore {
    async fn is_moderator(&self, account: &str) -> Result<bool, StoreError> {
        let account = account.to_owned();
        self.call(move |db| {
            Box::pin(async move {
                let row = db
                    .client
                    .query_opt("SELECT 1 FROM moderators WHERE account = $1", &[&account])
                    .await?;
                Ok(row.is_some())
            })
        })
        .await
    }

    async fn set_moderator(&self, account: &str, on: bool, at: Millis) -> Result<(), StoreError> {
        let account = account.to_owned();
        self.call(move |db| {
            Box::pin(async move {
                if on {
                    db.client
                        .execute(
                            "INSERT INTO moderators (account, at) VALUES ($1, $2)
                             ON CONFLICT (account) DO NOTHING",
                            &[&account, &(at as i64)],
                        )
                        .await?;
                } else {
                    db.client
                        .execute("DELETE FROM moderators WHERE account = $1", &[&account])
                        .await?;
                }
                Ok(())
            })
        })
        .await
    }

    async fn put_sanction(&self, kind: SanctionKind, s: &SanctionRecord) -> Result<(), StoreError> {
        let s = s.clone();
        self.call(move |db| {
            Box::pin(async move {
                db.client
                    .execute(
                        "INSERT INTO sanctions (kind, target, until, reason, by_player, at)
                         VALUES ($1, $2, $3, $4, $5, $6)
                         ON CONFLICT (kind, target) DO UPDATE SET until = $3, reason = $4,
                             by_player = $5, at = $6",
                        &[
                            &kind.as_str(),
                            &s.target,
                            &s.until.map(|u| u as i64),
                            &s.reason,
                            &s.by,
                            &(s.at as i64),
                        ],
                    )
                    .await?;
                Ok(())
            })
        })
        .await
    }

    async fn sanction(
        &self,
        kind: SanctionKind,
        target: &str,
        now: Millis,
    ) -> Result<Option<SanctionRecord>, StoreError> {
        let target = target.to_owned();
        self.call(move |db| {
            Box::pin(async move {
                let row = db
                    .client
                    .query_opt(
                        "SELECT target, until, reason, by_player, at FROM sanctions
                         WHERE kind = $1 AND target = $2 AND (until IS NULL OR until > $3)",
                        &[&kind.as_str(), &target, &(now as i64)],
                    )
                    .await?;
                Ok(row.as_ref().map(sanction))
            })
        })
        .await
    }

    async fn lift_sanction(&self, kind: SanctionKind, target: &str) -> Result<bool, StoreError> {
        let target = target.to_owned();
        self.call(move |db| {
            Box::pin(async move {
                let n = db
                    .client
                    .execute(
                        "DELETE FROM sanctions WHERE kind = $1 AND target = $2",
                        &[&kind.as_str(), &target],
                    )
                    .await?;
                Ok(n > 0)
            })
        })
        .await
    }

    async fn add_report(
        &self,
        r: &NewReport,
        since: Millis,
        most: u32,
    ) -> Result<Option<u64>, StoreError> {
        let r = r.clone();
        self.call(move |db| {
            Box::pin(async move {
                // One statement: the count and the insert see the same rows (two nodes filing
                // for one reporter at once may each pass the bound by one; a bound, not a quota).
                let row = db
                    .client
                    .query_opt(
                        "INSERT INTO reports (reporter, reporter_name, player, room, reason, at)
                         SELECT $1, $2, $3, $4, $5, $6
                         WHERE (SELECT COUNT(*) FROM reports WHERE reporter = $1 AND at > $7) < $8
                         RETURNING id",
                        &[
                            &r.reporter,
                            &r.reporter_name,
                            &r.player,
                            &r.room,
                            &r.reason,
                            &(r.at as i64),
                            &(since as i64),
                            &i64::from(most),
                        ],
                    )
                    .await?;
                Ok(row.map(|row| ms(row.get(0))))
            })
        })
        .await
    }

    async fn open_reports(&self, after: u64, limit: usize) -> Result<Vec<ReportEntry>, StoreError> {
        self.call(move |db| {
            Box::pin(async move {
                let rows = db
                    .client
                    .query(
                        "SELECT id, reporter, reporter_name, player, room, reason, at FROM reports
                         WHERE resolved_at IS NULL AND id > $1 ORDER BY id LIMIT $2",
                        &[&(after.min(i64::MAX as u64) as i64), &(limit as i64)],
                    )
                    .await?;
                Ok(rows.iter().map(report).collect())
            })
        })
        .await
    }

    async fn resolve_report(&self, id: u64, at: Millis) -> Result<bool, StoreError> {
        self.call(move |db| {
            Box::pin(async move {
                let n = db
                    .client
                    .execute(
                        "UPDATE reports SET resolved_at = $2 WHERE id = $1 AND resolved_at IS NULL",
                        &[&(id.min(i64::MAX as u64) as i64), &(at as i64)],
                    )
                    .await?;
                Ok(n > 0)
            })
        })
        .await
    }

    async fn add_audit(&self, e: &AuditEntry) -> Result<u64, StoreError> {
        let e = e.clone();
        self.call(move |db| {
            Box::pin(async move {
                let row = db
                    .client
                    .query_one(
                        "INSERT INTO audit (moderator, moderator_name, action, target, detail,
                             reason, at)
                         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id",
                        &[
                            &e.moderator,
                            &e.moderator_name,
                            &e.action,
                            &e.target,
                            &e.detail,
                            &e.reason,
                            &(e.at as i64),
                        ],
                    )
                    .await?;
                Ok(ms(row.get(0)))
            })
        })
        .await
    }

    async fn audit_log(
        &self,
        before: Option<u64>,
        limit: usize,
    ) -> Result<Vec<AuditEntry>, StoreError> {
        let before = before.map_or(i64::MAX, |b| b.min(i64::MAX as u64) as i64);
        self.call(move |db| {
            Box::pin(async move {
                let rows = db
                    .client
                    .query(
                        "SELECT id, moderator, moderator_name, action, target, detail, reason, at
                         FROM audit WHERE id < $1 ORDER BY id DESC LIMIT $2",
                        &[&before, &(limit as i64)],
                    )
                    .await?;
                Ok(rows.iter().map(audit).collect())
            })
        })
        .await
    }

    async fn set_block(
        &self,
        account: &str,
        player: &BlockedPlayer,
        on: bool,
        at: Millis,
    ) -> Result<(), StoreError> {
        let (account, player) = (account.to_owned(), player.clone());
        self.call(move |db| {
            Box::pin(async move {
                if on {
                    db.client
                        .execute(
                            "INSERT INTO blocks (account, player, name, at) VALUES ($1, $2, $3, $4)
                             ON CONFLICT (account, player) DO UPDATE SET name = $3",
                            &[&account, &player.player, &player.name, &(at as i64)],
                        )
                        .await?;
                } else {
                    db.client
                        .execute(
                            "DELETE FROM blocks WHERE account = $1 AND player = $2",
                            &[&account, &player.player],
                        )
                        .await?;
                }
                Ok(())
            })
        })
        .await
    }

    async fn blocks(&self, account: &str) -> Result<Vec<BlockedPlayer>, StoreError> {
        let account = account.to_owned();
        self.call(move |db| {
            Box::pin(async move {
                let rows = db
                    .client
                    .query(
                        "SELECT player, name FROM blocks WHERE account = $1 ORDER BY at, player",
                        &[&account],
                    )
                    .await?;
                Ok(rows
                    .iter()
                    .map(|r| BlockedPlayer {
                        player: r.get(0),
                        name: r.get(1),
                    })
                    .collect())
            })
        })
        .await
    }

    async fn redact(&self, room: &str, seq: u64, at: Millis) -> Result<(), StoreError> {
        let room = room.to_owned();
        self.call(move |db| {
            Box::pin(async move {
                db.client
                    .execute(
                        "INSERT INTO redactions (room, seq, at) VALUES ($1, $2, $3)
                         ON CONFLICT (room, seq) DO NOTHING",
                        &[&room, &(seq.min(i64::MAX as u64) as i64), &(at as i64)],
                    )
                    .await?;
                Ok(())
            })
        })
        .await
    }

    async fn redactions(&self, room: &str) -> Result<Vec<u64>, StoreError> {
        let room = room.to_owned();
        self.call(move |db| {
            Box::pin(async move {
                let rows = db
                    .client
                    .query(
                        "SELECT seq FROM redactions WHERE room = $1 ORDER BY seq",
                        &[&room],
                    )
                    .await?;
                Ok(rows.iter().map(|r| ms(r.get(0))).collect())
            })
        })
        .await
    }
}
