//! The commit log: where a group commit is made durable. Each group commit is one `write()`
//! of checksummed records at the end of a segment file beside the database, and nothing else:
//! no SQLite transaction, no checkpoint, no WAL reset, no fsync (unless `--sync full`). Once
//! `write()` returns the bytes are the kernel's, so a process killed at any instant after it
//! loses nothing; a power cut can lose what the kernel had not yet written back, and never
//! leaves a gap (a replay stops at the first record that does not check).
//!
//! The archiver (`archiver.rs`) copies the rows into SQLite off the commit path; a segment is
//! deleted once every row in it is in SQLite's main file and that file is synced. On start,
//! whatever segments remain are replayed into SQLite first (`sqlite.rs`).

use super::journal::Row;
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// How durable a commit is when it resolves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Durability {
    /// Written to the kernel (`write()`): survives the process being killed at any instant; a
    /// power cut or kernel crash loses the commits the kernel had not yet written back
    /// (normally the last few seconds, at most `vm.dirty_expire_centisecs`, 30 s by default).
    #[default]
    Normal,
    /// Also on the disk (`fdatasync` after every group commit, SQLite `synchronous=FULL`):
    /// survives a power cut, at the cost of one disk flush per group commit.
    Full,
}

/// A segment starts over past this size (the archiver deletes whole segments).
pub const SEGMENT_BYTES: u64 = 16 << 20;
/// The first bytes of every segment.
const MAGIC: &[u8; 8] = b"ORIONLG1";
/// Magic and the store's id.
const HEADER: usize = 16;
/// Length and checksum before each record.
const RECORD_HEAD: usize = 8;

/// The segment files of one database, and the one being written.
pub struct CommitLog {
    /// `<db>-commits.`, to which the segment number is added.
    prefix: PathBuf,
    /// The database's id, in every segment's header.
    store_id: u64,
    /// Whether each write is followed by `fdatasync`.
    durability: Durability,
    /// The segment being written, its number, and its length (all of it good records).
    file: File,
    number: u64,
    len: u64,
    /// The last row id written to the current segment.
    last_id: i64,
    /// Records of the group commit being written (kept to reuse its memory).
    buf: Vec<u8>,
}

/// A segment that is complete and will not be written again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sealed {
    /// Its number.
    pub number: u64,
    /// The last row id in it.
    pub last_id: i64,
}

/// What a replay of the segments found.
#[derive(Debug, Default)]
pub struct Replay {
    /// Every good record, in commit order.
    pub rows: Vec<(Arc<str>, Row)>,
    /// The segments the rows came from (to delete once the rows are stored elsewhere).
    pub segments: Vec<PathBuf>,
    /// The highest segment number seen (the next starts above it).
    pub last_number: u64,
}

/// `<db>-commits.` for the database at `db`.
pub fn prefix_of(db: &str) -> PathBuf {
    PathBuf::from(format!("{db}-commits."))
}

fn segment_path(prefix: &Path, number: u64) -> PathBuf {
    let mut p = prefix.as_os_str().to_owned();
    p.push(format!("{number:08}"));
    PathBuf::from(p)
}

/// The segments under `prefix`, by number.
fn list(prefix: &Path) -> io::Result<Vec<(u64, PathBuf)>> {
    let dir = match prefix.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let stem = prefix
        .file_name()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut out = Vec::new();
    for entry in std::fs::read_dir(&dir)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if let Some(n) = name.strip_prefix(&stem).and_then(|n| n.parse::<u64>().ok()) {
            out.push((n, entry.path()));
        }
    }
    out.sort();
    Ok(out)
}

/// Reads every segment under `prefix` that belongs to the store `store_id`, in order, up to
/// the first record that does not check: after a kill that is the end of the last segment;
/// after a power cut it may be earlier, and later segments are then set aside (renamed
/// `.torn`, with a warning) so that no replay has a gap. Segments of another database (left
/// by one that was deleted) are removed, as SQLite does with a WAL that is not its own.
pub fn replay(prefix: &Path, store_id: u64) -> io::Result<Replay> {
    let mut out = Replay::default();
    let mut torn = false;
    for (number, path) in list(prefix)? {
        out.last_number = out.last_number.max(number);
        if torn {
            let aside = path.with_extension(format!("{number:08}.torn"));
            tracing::warn!(
                "commit log segment {} follows a torn one: set aside as {}",
                path.display(),
                aside.display()
            );
            std::fs::rename(&path, &aside)?;
            continue;
        }
        let bytes = std::fs::read(&path)?;
        if bytes.len() >= HEADER && &bytes[..8] != MAGIC
            || bytes.len() >= HEADER && read_u64(&bytes[8..16]) != store_id
        {
            tracing::warn!(
                "commit log segment {} is not this database's: removed",
                path.display()
            );
            std::fs::remove_file(&path)?;
            continue;
        }
        let mut at = HEADER.min(bytes.len());
        while let Some((room, row, next)) = decode(&bytes, at) {
            out.rows.push((room, row));
            at = next;
        }
        if at < bytes.len() || bytes.len() < HEADER {
            torn = true;
        }
        out.segments.push(path);
    }
    Ok(out)
}

/// Reads, without changing any file, every good record of the segments under `prefix` that
/// belong to the store `store_id`, in order, up to the first record that does not check (the
/// end of the segment a running writer is writing, or a torn one): what a backup of a running
/// server takes from the commit log. A segment deleted while it is read had every row in
/// SQLite already, and is skipped.
pub fn read_live(prefix: &Path, store_id: u64) -> io::Result<Vec<(Arc<str>, Row)>> {
    let mut rows = Vec::new();
    for (_, path) in list(prefix)? {
        let bytes = match std::fs::read(&path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == io::ErrorKind::NotFound => continue,
            Err(e) => return Err(e),
        };
        if bytes.len() < HEADER {
            break;
        }
        if &bytes[..8] != MAGIC || read_u64(&bytes[8..16]) != store_id {
            continue;
        }
        let mut at = HEADER;
        while let Some((room, row, next)) = decode(&bytes, at) {
            rows.push((room, row));
            at = next;
        }
        if at < bytes.len() {
            break;
        }
    }
    Ok(rows)
}

/// Whether any segment (or set-aside segment) of a database at `prefix` exists.
pub fn any_segment(prefix: &Path) -> io::Result<bool> {
    Ok(!list(prefix)?.is_empty())
}

/// Removes segment `number`.
pub fn remove(prefix: &Path, number: u64) -> io::Result<()> {
    std::fs::remove_file(segment_path(prefix, number))
}

impl CommitLog {
    /// Starts segment `number` (one past the last replayed) for the store `store_id`.
    pub fn create(
        prefix: PathBuf,
        store_id: u64,
        number: u64,
        durability: Durability,
    ) -> io::Result<CommitLog> {
        let file = new_segment(&prefix, number, store_id, durability)?;
        Ok(CommitLog {
            prefix,
            store_id,
            durability,
            file,
            number,
            len: HEADER as u64,
            last_id: 0,
            buf: Vec::new(),
        })
    }

    /// The segment being written.
    #[cfg(test)]
    pub fn number(&self) -> u64 {
        self.number
    }

    /// The segment being written, as it would be sealed now.
    pub fn current(&self) -> Sealed {
        Sealed {
            number: self.number,
            last_id: self.last_id,
        }
    }

    /// Writes `rows` (one group commit) with one `write()` (and an `fdatasync` if the log is
    /// [`Durability::Full`]). On failure nothing of them is kept: the segment is cut back to
    /// its last good record. Returns the segment it sealed, if it then started a new one.
    pub fn append(&mut self, rows: &[(Arc<str>, Row)]) -> io::Result<Option<Sealed>> {
        self.buf.clear();
        for (room, row) in rows {
            encode(&mut self.buf, room, row);
        }
        let written = self.file.write_all(&self.buf).and_then(|()| {
            if self.durability == Durability::Full {
                self.file.sync_data()
            } else {
                Ok(())
            }
        });
        if let Err(e) = written {
            // Cut the partial records off, so the next commit's follow good ones.
            self.file.set_len(self.len)?;
            use std::io::Seek;
            self.file.seek(io::SeekFrom::Start(self.len))?;
            return Err(e);
        }
        self.len += self.buf.len() as u64;
        if let Some((_, last)) = rows.last() {
            self.last_id = last.id;
        }
        if self.buf.capacity() > 1 << 20 {
            self.buf = Vec::new();
        }
        if self.len < SEGMENT_BYTES {
            return Ok(None);
        }
        let sealed = Sealed {
            number: self.number,
            last_id: self.last_id,
        };
        // A failure to start the next segment is not this commit's: it is retried next time.
        match new_segment(
            &self.prefix,
            self.number + 1,
            self.store_id,
            self.durability,
        ) {
            Ok(file) => {
                self.file = file;
                self.number += 1;
                self.len = HEADER as u64;
                Ok(Some(sealed))
            }
            Err(e) => {
                tracing::warn!("cannot start a new commit log segment (retried): {e}");
                Ok(None)
            }
        }
    }
}

/// Creates segment `number` with its header.
fn new_segment(
    prefix: &Path,
    number: u64,
    store_id: u64,
    durability: Durability,
) -> io::Result<File> {
    let path = segment_path(prefix, number);
    let mut file = OpenOptions::new()
        .create(true)
        .truncate(true)
        .write(true)
        .open(&path)?;
    let mut header = [0u8; HEADER];
    header[..8].copy_from_slice(MAGIC);
    header[8..].copy_from_slice(&store_id.to_le_bytes());
    file.write_all(&header)?;
    if durability == Durability::Full {
        file.sync_all()?;
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            File::open(dir)?.sync_all()?;
        }
    }
    Ok(file)
}

fn put_bytes(buf: &mut Vec<u8>, bytes: &[u8]) {
    buf.extend_from_slice(&(bytes.len() as u32).to_le_bytes());
    buf.extend_from_slice(bytes);
}

/// One record: payload length, CRC-32 of the payload, then room, n, seq, action, events.
fn encode(buf: &mut Vec<u8>, room: &str, row: &Row) {
    let start = buf.len();
    buf.extend_from_slice(&[0; RECORD_HEAD]);
    put_bytes(buf, room.as_bytes());
    buf.extend_from_slice(&row.n.to_le_bytes());
    buf.extend_from_slice(&row.seq.to_le_bytes());
    match &row.action {
        Some(a) => {
            buf.push(1);
            put_bytes(buf, a.as_bytes());
        }
        None => buf.push(0),
    }
    put_bytes(buf, row.events.as_bytes());
    let payload = &buf[start + RECORD_HEAD..];
    let len = (payload.len() as u32).to_le_bytes();
    let crc = crc32fast::hash(payload).to_le_bytes();
    buf[start..start + 4].copy_from_slice(&len);
    buf[start + 4..start + 8].copy_from_slice(&crc);
}

fn read_u64(b: &[u8]) -> u64 {
    u64::from_le_bytes(b.try_into().unwrap_or([0; 8]))
}

/// Reads fields out of a record's payload.
struct Fields<'a>(&'a [u8]);

impl<'a> Fields<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let (head, rest) = (self.0.get(..n)?, self.0.get(n..)?);
        self.0 = rest;
        Some(head)
    }
    fn u64(&mut self) -> Option<u64> {
        self.take(8).map(read_u64)
    }
    fn text(&mut self) -> Option<String> {
        let len = u32::from_le_bytes(self.take(4)?.try_into().ok()?) as usize;
        String::from_utf8(self.take(len)?.to_vec()).ok()
    }
}

/// The record at `at` in `bytes`, and where the next starts; `None` at the end or at a record
/// that is cut short or does not check.
fn decode(bytes: &[u8], at: usize) -> Option<(Arc<str>, Row, usize)> {
    let head = bytes.get(at..at + RECORD_HEAD)?;
    let len = u32::from_le_bytes(head[..4].try_into().ok()?) as usize;
    let crc = u32::from_le_bytes(head[4..].try_into().ok()?);
    let payload = bytes.get(at + RECORD_HEAD..at + RECORD_HEAD + len)?;
    if len == 0 || crc32fast::hash(payload) != crc {
        return None;
    }
    let mut f = Fields(payload);
    let room = f.text()?;
    let (n, seq) = (f.u64()?, f.u64()?);
    let action = match f.take(1)?[0] {
        0 => None,
        _ => Some(f.text()?),
    };
    let events = f.text()?;
    let row = Row {
        id: 0,
        n,
        seq,
        action,
        events,
    };
    Some((Arc::from(room), row, at + RECORD_HEAD + len))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(n: u64) -> Row {
        Row {
            id: n as i64,
            n,
            seq: n * 2,
            action: n.is_multiple_of(2).then(|| format!("N {n} click C1R")),
            events: format!("{{\"n\":{n}}}\n{{\"m\":{n}}}"),
        }
    }

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("orion-clog-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn a_replay_returns_every_record_and_stops_at_a_torn_one() {
        let d = dir("torn");
        let prefix = d.join("s.db-commits.");
        let mut log = CommitLog::create(prefix.clone(), 7, 1, Durability::Normal).unwrap();
        for n in 1..=3 {
            log.append(&[(Arc::from("r"), row(n))]).unwrap();
        }
        let back = replay(&prefix, 7).unwrap();
        let ns: Vec<u64> = back.rows.iter().map(|(_, r)| r.n).collect();
        assert_eq!(ns, vec![1, 2, 3]);
        assert_eq!(back.rows[1].1.action.as_deref(), Some("N 2 click C1R"));
        assert_eq!(back.rows[2].1.events, "{\"n\":3}\n{\"m\":3}");
        // A write cut short by a kill, then a segment written after it (as only a power cut
        // could leave): the replay keeps the good records and sets the later segment aside.
        let path = segment_path(&prefix, 1);
        let len = std::fs::metadata(&path).unwrap().len();
        let f = OpenOptions::new().write(true).open(&path).unwrap();
        f.set_len(len - 3).unwrap();
        let mut later = CommitLog::create(prefix.clone(), 7, 2, Durability::Normal).unwrap();
        later.append(&[(Arc::from("r"), row(4))]).unwrap();
        let back = replay(&prefix, 7).unwrap();
        assert_eq!(back.rows.len(), 2);
        assert_eq!(back.last_number, 2);
        assert!(!segment_path(&prefix, 2).exists());
        // Another store's segment is not replayed.
        let back = replay(&prefix, 8).unwrap();
        assert!(back.rows.is_empty());
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_full_segment_is_sealed_and_the_next_one_started() {
        let d = dir("seal");
        let prefix = d.join("s.db-commits.");
        let mut log = CommitLog::create(prefix.clone(), 1, 5, Durability::Full).unwrap();
        let big = Row {
            events: "x".repeat(1 << 20),
            ..row(1)
        };
        let mut sealed = None;
        for n in 1..=20 {
            let r = Row {
                id: n,
                n: n as u64,
                ..big.clone()
            };
            if let Some(s) = log.append(&[(Arc::from("r"), r)]).unwrap() {
                sealed = Some(s);
                break;
            }
        }
        let sealed = sealed.expect("a 16 MB segment seals");
        assert_eq!(sealed.number, 5);
        assert_eq!(log.number(), 6);
        assert_eq!(sealed.last_id, 16);
        assert_eq!(replay(&prefix, 1).unwrap().rows.len(), 16);
        remove(&prefix, 5).unwrap();
        assert!(replay(&prefix, 1).unwrap().rows.is_empty());
        let _ = std::fs::remove_dir_all(&d);
    }
}
