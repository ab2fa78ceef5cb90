//! `orion-server backup` and `restore` for the SQLite store, safe while a server runs on it.
//!
//! A backup is one self-contained SQLite file holding everything committed when it began.
//! Committed rows live in two places (`store` module doc): SQLite, and the commit log's
//! segments for rows the archiver has not filed yet. So a backup (1) reads the segments
//! without touching them (`commit_log::read_live`), then (2) copies SQLite with its online
//! backup API in one step, which is one read transaction and so one consistent snapshot, WAL
//! included, while the server goes on writing, and (3) files the segments' rows into the copy
//! as a restart would. Nothing is lost between (1) and (2): a segment goes only after every
//! row in it is in SQLite, so a row not in the segments read in (1) was already in SQLite,
//! and is in the snapshot (2); rows already there are skipped (`open::file_rows`). The copy
//! is written beside FILE and renamed onto it only when complete.
//!
//! `restore` copies a backup into a store path that does not exist yet (SQLite's backup API
//! again, so a file that is not a store is refused before anything is written).

use super::commit_log;
use super::error::StoreError;
use super::sqlite::open::file_rows;
use rusqlite::{Connection, OpenFlags};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How long a copy waits for the running server's writes to let it read.
const BUSY: Duration = Duration::from_secs(30);

/// Why a backup or restore was refused or failed.
#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    /// `--store` names a PostgreSQL database.
    #[error(
        "the store is a PostgreSQL database: back it up with pg_dump and restore it with \
         pg_restore (README, Backups)"
    )]
    Postgres,
    /// The store (or the backup) is not there.
    #[error("there is no file {0}")]
    Missing(PathBuf),
    /// The file is there but holds no Orion Online store.
    #[error("{0} is not an Orion Online store: {1}")]
    NotAStore(PathBuf, String),
    /// The target exists: nothing is overwritten.
    #[error("{0} exists already: move it away first (nothing is overwritten)")]
    Exists(PathBuf),
    /// The running server held a lock the copy needed for longer than it waits.
    #[error("the store stayed locked for {0:?}: try again")]
    Locked(Duration),
    /// Reading or writing failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<rusqlite::Error> for BackupError {
    fn from(e: rusqlite::Error) -> BackupError {
        BackupError::Store(e.into())
    }
}

impl From<std::io::Error> for BackupError {
    fn from(e: std::io::Error) -> BackupError {
        BackupError::Store(e.into())
    }
}

/// What a backup or restore holds, for the operator to read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Copied {
    /// Where it went.
    pub to: PathBuf,
    /// Rooms, finished or not.
    pub rooms: u64,
    /// Stored actions (rows of the event log).
    pub appends: u64,
    /// Claimed accounts.
    pub accounts: u64,
    /// Its size in bytes.
    pub bytes: u64,
}

impl std::fmt::Display for Copied {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: {} rooms, {} stored actions, {} accounts ({} bytes)",
            self.to.display(),
            self.rooms,
            self.appends,
            self.accounts,
            self.bytes
        )
    }
}

/// Copies the SQLite store at `store`, which a server may be running on, into `file` (which
/// must not exist). See the module doc for why the copy is consistent.
pub fn backup(store: &str, file: &Path) -> Result<Copied, BackupError> {
    let source_path = sqlite_path(store)?;
    if !source_path.exists() {
        return Err(BackupError::Missing(source_path));
    }
    if file.exists() {
        return Err(BackupError::Exists(file.to_owned()));
    }
    let source = Connection::open_with_flags(
        &source_path,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    source.busy_timeout(BUSY)?;
    let id = read_store_id(&source, &source_path)?;
    // (1) The commit log's rows, before the snapshot.
    let pending = commit_log::read_live(&commit_log::prefix_of(store), id)?;
    // (2) The snapshot, written beside the target.
    let partial = partial_path(file);
    let _ = std::fs::remove_file(&partial);
    let mut copy = Connection::open(&partial)?;
    let copied = (|| -> Result<Copied, BackupError> {
        copy_whole(&source, &mut copy)?;
        // (3) What the commit log held, filed as a restart would; then one file, no WAL.
        file_rows(&mut copy, &pending)?;
        copy.pragma_update(None, "journal_mode", "DELETE")?;
        count(&copy, file)
    })();
    drop(copy);
    match copied {
        Ok(mut copied) => {
            std::fs::rename(&partial, file)?;
            copied.bytes = std::fs::metadata(file)?.len();
            Ok(copied)
        }
        Err(e) => {
            let _ = std::fs::remove_file(&partial);
            Err(e)
        }
    }
}

/// Makes the store `store` (which must not exist, nor any commit log of it) from the backup
/// `file`. A server started on `store` then has every game, account and rating of the backup.
pub fn restore(file: &Path, store: &str) -> Result<Copied, BackupError> {
    let target = sqlite_path(store)?;
    if !file.exists() {
        return Err(BackupError::Missing(file.to_owned()));
    }
    let wal = PathBuf::from(format!("{store}-wal"));
    for path in [&target, &wal] {
        if path.exists() {
            return Err(BackupError::Exists(path.clone()));
        }
    }
    if commit_log::any_segment(&commit_log::prefix_of(store))? {
        return Err(BackupError::Exists(PathBuf::from(format!(
            "{store}-commits.*"
        ))));
    }
    let source = Connection::open_with_flags(
        file,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    read_store_id(&source, file)?;
    let partial = partial_path(&target);
    let _ = std::fs::remove_file(&partial);
    let mut copy = Connection::open(&partial)?;
    let copied = (|| -> Result<Copied, BackupError> {
        copy_whole(&source, &mut copy)?;
        count(&copy, &target)
    })();
    drop(copy);
    match copied {
        Ok(mut copied) => {
            std::fs::rename(&partial, &target)?;
            copied.bytes = std::fs::metadata(&target)?.len();
            Ok(copied)
        }
        Err(e) => {
            let _ = std::fs::remove_file(&partial);
            Err(e)
        }
    }
}

/// Copies the whole database `from` into `to` with SQLite's online backup API in one step
/// (`-1` pages: all of them), which holds one read transaction on `from`: one consistent
/// snapshot, whatever other connections write meanwhile. While a writer holds a lock the
/// step cannot take, it is tried again, for at most [`BUSY`].
fn copy_whole(from: &Connection, to: &mut Connection) -> Result<(), BackupError> {
    use rusqlite::backup::{Backup, StepResult};
    let backup = Backup::new(from, to)?;
    let began = std::time::Instant::now();
    loop {
        match backup.step(-1)? {
            StepResult::Done => return Ok(()),
            StepResult::More => {}
            StepResult::Busy | StepResult::Locked if began.elapsed() < BUSY => {
                std::thread::sleep(Duration::from_millis(10));
            }
            StepResult::Busy | StepResult::Locked => return Err(BackupError::Locked(BUSY)),
            _ => {}
        }
    }
}

/// The file a SQLite `store` names; refused for PostgreSQL, `:memory:` or a missing file.
fn sqlite_path(store: &str) -> Result<PathBuf, BackupError> {
    if store.starts_with("postgres://") || store.starts_with("postgresql://") {
        return Err(BackupError::Postgres);
    }
    if store == ":memory:" {
        return Err(BackupError::NotAStore(
            store.into(),
            "an in-memory store is gone with its server".into(),
        ));
    }
    Ok(PathBuf::from(store))
}

/// The store id a store's `meta` table holds (which also proves it is a store).
fn read_store_id(conn: &Connection, path: &Path) -> Result<u64, BackupError> {
    if !path.exists() {
        return Err(BackupError::Missing(path.to_owned()));
    }
    conn.query_row("SELECT value FROM meta WHERE key = 'store_id'", [], |r| {
        r.get::<_, i64>(0)
    })
    .map(|id| id as u64)
    .map_err(|e| BackupError::NotAStore(path.to_owned(), e.to_string()))
}

/// What a copy holds.
fn count(conn: &Connection, to: &Path) -> Result<Copied, BackupError> {
    let n = |sql: &str| {
        conn.query_row(sql, [], |r| r.get::<_, i64>(0))
            .map(|v| v as u64)
    };
    Ok(Copied {
        to: to.to_owned(),
        rooms: n("SELECT COUNT(*) FROM rooms")?,
        appends: n("SELECT COALESCE(SUM(last_n - n + 1), 0) FROM log")?,
        accounts: n("SELECT COUNT(*) FROM accounts")?,
        bytes: 0,
    })
}

/// Where a copy to `path` is written until it is complete.
fn partial_path(path: &Path) -> PathBuf {
    let mut p = path.as_os_str().to_owned();
    p.push(".partial");
    PathBuf::from(p)
}
