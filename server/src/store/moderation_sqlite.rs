//! [`ModerationStore`] on SQLite (its tables: `moderation_schema.rs`, made on open), every call
//! run on the archiver's thread like the rest of the store.

use super::error::StoreError;
use super::moderation::{
    AuditEntry, BlockedPlayer, ModerationStore, NewReport, ReportEntry, SanctionKind,
    SanctionRecord,
};
use super::sqlite::SqliteStore;
use crate::clock::Millis;
use rusqlite::{params, OptionalExtension};

fn ms(v: i64) -> Millis {
    v.max(0) as Millis
}

#[async_trait::async_trait]
impl ModerationStore for SqliteStore {
    async fn is_moderator(&self, account: &str) -> Result<bool, StoreError> {
        let account = account.to_owned();
        self.call(move |c, _| {
            let found = c
                .query_row(
                    "SELECT 1 FROM moderators WHERE account = ?1",
                    params![account],
                    |_| Ok(()),
                )
                .optional()?;
            Ok(found.is_some())
        })
        .await
    }

    async fn set_moderator(&self, account: &str, on: bool, at: Millis) -> Result<(), StoreError> {
        let account = account.to_owned();
        self.call(move |c, _| {
            if on {
                c.execute(
                    "INSERT OR IGNORE INTO moderators (account, at) VALUES (?1, ?2)",
                    params![account, at as i64],
                )?;
            } else {
                c.execute(
                    "DELETE FROM moderators WHERE account = ?1",
                    params![account],
                )?;
            }
            Ok(())
        })
        .await
    }

    async fn put_sanction(&self, kind: SanctionKind, s: &SanctionRecord) -> Result<(), StoreError> {
        let s = s.clone();
        self.call(move |c, _| {
            c.execute(
                "INSERT OR REPLACE INTO sanctions (kind, target, until, reason, by_player, at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![
                    kind.as_str(),
                    s.target,
                    s.until.map(|u| u as i64),
                    s.reason,
                    s.by,
                    s.at as i64
                ],
            )?;
            Ok(())
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
        self.call(move |c, _| {
            Ok(c.query_row(
                "SELECT target, until, reason, by_player, at FROM sanctions
                 WHERE kind = ?1 AND target = ?2 AND (until IS NULL OR until > ?3)",
                params![kind.as_str(), target, now as i64],
                |r| {
                    Ok(SanctionRecord {
                        target: r.get(0)?,
                        until: r.get::<_, Option<i64>>(1)?.map(ms),
                        reason: r.get(2)?,
                        by: r.get(3)?,
                        at: ms(r.get(4)?),
                    })
                },
            )
            .optional()?)
        })
        .await
    }

    async fn lift_sanction(&self, kind: SanctionKind, target: &str) -> Result<bool, StoreError> {
        let target = target.to_owned();
        self.call(move |c, _| {
            let n = c.execute(
                "DELETE FROM sanctions WHERE kind = ?1 AND target = ?2",
                params![kind.as_str(), target],
            )?;
            Ok(n > 0)
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
        self.call(move |c, _| {
            let tx = c.transaction()?;
            let filed: i64 = tx.query_row(
                "SELECT COUNT(*) FROM reports WHERE reporter = ?1 AND at > ?2",
                params![r.reporter, since as i64],
                |row| row.get(0),
            )?;
            if filed >= i64::from(most) {
                return Ok(None);
            }
            tx.execute(
                "INSERT INTO reports (reporter, reporter_name, player, room, reason, at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![
                    r.reporter,
                    r.reporter_name,
                    r.player,
                    r.room,
                    r.reason,
                    r.at as i64
                ],
            )?;
            let id = tx.last_insert_rowid();
            tx.commit()?;
            Ok(Some(id.max(0) as u64))
        })
        .await
    }

    async fn open_reports(&self, after: u64, limit: usize) -> Result<Vec<ReportEntry>, StoreError> {
        self.call(move |c, _| {
            let mut stmt = c.prepare(
                "SELECT id, reporter, reporter_name, player, room, reason, at FROM reports
                 WHERE resolved_at IS NULL AND id > ?1 ORDER BY id LIMIT ?2",
            )?;
            let rows = stmt.query_map(params![after as i64, limit as i64], |r| {
                Ok(ReportEntry {
                    id: ms(r.get(0)?),
                    reporter: r.get(1)?,
                    reporter_name: r.get(2)?,
                    player: r.get(3)?,
                    room: r.get(4)?,
                    reason: r.get(5)?,
                    at: ms(r.get(6)?),
                })
            })?;
            Ok(rows.collect::<Result<Vec<_>, _>>()?)
        })
        .await
    }

    async fn resolve_report(&self, id: u64, at: Millis) -> Result<bool, StoreError> {
        self.call(move |c, _| {
            let n = c.execute(
                "UPDATE reports SET resolved_at = ?2 WHERE id = ?1 AND resolved_at IS NULL",
                params![id as i64, at as i64],
            )?;
            Ok(n > 0)
        })
        .await
    }

    async fn add_audit(&self, e: &AuditEntry) -> Result<u64, StoreError> {
        let e = e.clone();
        self.call(move |c, _| {
            c.execute(
                "INSERT INTO audit (moderator, moderator_name, action, target, detail, reason, at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                params![
                    e.moderator,
                    e.moderator_name,
                    e.action,
                    e.target,
                    e.detail,
                    e.reason,
                    e.at as i64
                ],
            )?;
            Ok(c.last_insert_rowid().max(0) as u64)
        })
        .await
    }

    async fn audit_log(
        &self,
        before: Option<u64>,
        limit: usize,
    ) -> Result<Vec<AuditEntry>, StoreError> {
        let before = before.map_or(i64::MAX, |b| b.min(i64::MAX as u64) as i64);
        self.call(move |c, _| {
            let mut stmt = c.prepare(
                "SELECT id, moderator, moderator_name, action, target, detail, reason, at
                 FROM audit WHERE id < ?1 ORDER BY id DESC LIMIT ?2",
            )?;
            let rows = stmt.query_map(params![before, limit as i64], |r| {
                Ok(AuditEntry {
                    id: ms(r.get(0)?),
                    moderator: r.get(1)?,
                    moderator_name: r.get(2)?,
                    action: r.get(3)?,
                    target: r.get(4)?,
                    detail: r.get(5)?,
                    reason: r.get(6)?,
                    at: ms(r.get(7)?),
                })
            })?;
            Ok(rows.collect::<Result<Vec<_>, _>>()?)
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
        self.call(move |c, _| {
            if on {
                c.execute(
                    "INSERT OR REPLACE INTO blocks (account, player, name, at)
                     VALUES (?1, ?2, ?3, ?4)",
                    params![account, player.player, player.name, at as i64],
                )?;
            } else {
                c.execute(
                    "DELETE FROM blocks WHERE account = ?1 AND player = ?2",
                    params![account, player.player],
                )?;
            }
            Ok(())
        })
        .await
    }

    async fn blocks(&self, account: &str) -> Result<Vec<BlockedPlayer>, StoreError> {
        let account = account.to_owned();
        self.call(move |c, _| {
            let mut stmt = c.prepare(
                "SELECT player, name FROM blocks WHERE account = ?1 ORDER BY at, player",
            )?;
            let rows = stmt.query_map(params![account], |r| {
                Ok(BlockedPlayer {
                    player: r.get(0)?,
                    name: r.get(1)?,
                })
            })?;
            Ok(rows.collect::<Result<Vec<_>, _>>()?)
        })
        .await
    }

    async fn redact(&self, room: &str, seq: u64, at: Millis) -> Result<(), StoreError> {
        let room = room.to_owned();
        self.call(move |c, _| {
            c.execute(
                "INSERT OR IGNORE INTO redactions (room, seq, at) VALUES (?1, ?2, ?3)",
                params![room, seq as i64, at as i64],
            )?;
            Ok(())
        })
        .await
    }

    async fn redactions(&self, room: &str) -> Result<Vec<u64>, StoreError> {
        let room = room.to_owned();
        self.call(move |c, _| {
            let mut stmt = c.prepare("SELECT seq FROM redactions WHERE room = ?1 ORDER BY seq")?;
            let rows = stmt.query_map(params![room], |r| r.get::<_, i64>(0))?;
            let seqs = rows.collect::<Result<Vec<_>, _>>()?;
            Ok(seqs.into_iter().map(ms).collect())
        })
        .await
    }
}
