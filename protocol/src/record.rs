//! A finished game as plain text (`/g/ROOM.txt`, the `export` reply): headers, then one turn a
//! line in the game's own notation with the events that mattered, then nothing else. The
//! server writes it from its store; `orion replay` and the browser read it back and replay it.
//! Written and read here only, so the two sides cannot drift apart.
//!
//! ```text
//! # Orion Online game record
//! room: r12
//! game: hydra-2
//! date: 2026-11-23T05:10:02Z
//! seats: S N
//! names: {"N":"bob","S":"alice"}
//! options: {"clicks":2,"die":[1,2,3,4,5,6],"claim_window":5000,"players":2}
//! seed: 8842
//! salt: 9f0c…
//! start: C1w:R1 C2w:R2 …
//! result: S wins (S 0, N 0)
//! result-json: {"winner":"S","scores":{"N":0,"S":0}}
//!
//! 1. S: C4R, D4L {chain R} [C1w:R1 …]
//! 2. N: roll {rolled 3}, C1L, C1L, (S) claim {claimed} [C1w:R1 …]
//! ```
//!
//! A turn line is `N. SEAT: ITEM, ITEM … [POSITION]`: each item an action in the game's
//! notation (ORION's booklet clicks `C4R`, `place C2n`, `end`, `roll`; Orbit's `h8`; Orbs'
//! `d2-e6`), prefixed `(SEAT)` when a seat other than the mover acted (a claim), followed by
//! notes in braces (`{rolled 3}`, `{captures C2n A1w: 2 points}`) a reader may ignore; the
//! bracket holds the position after the turn. Lines starting with `#` are comments.

use crate::room::GameResult;
use std::collections::BTreeMap;
use std::fmt::{self, Write as _};
use thiserror::Error;

/// The first line of every record.
pub const RECORD_TITLE: &str = "# Orion Online game record";

/// One action in a turn line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordItem {
    /// Who acted, when not the turn's seat (a claim out of turn).
    pub seat: Option<String>,
    /// The action in the game's notation (`C4R`, `place C2n`, `h8`).
    pub action: String,
    /// What it caused that a reader would want to see (`rolled 3`, `chain R`).
    pub notes: Vec<String>,
}

/// One turn: a line of the record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordTurn {
    /// Its number, from 1.
    pub number: u32,
    /// The seat whose turn it was.
    pub seat: String,
    /// The actions, in the order the room took them.
    pub items: Vec<RecordItem>,
    /// The position string after the turn.
    pub position: Option<String>,
}

/// A finished game's record.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// Room id.
    pub room: String,
    /// Game id (`hydra-2`, `orbit`, `aquila`).
    pub game: String,
    /// When it ended (RFC 3339, UTC).
    pub date: String,
    /// The seats, in turn order.
    pub seats: Vec<String>,
    /// Who sat where, by seat.
    pub names: BTreeMap<String, String>,
    /// The game's options as the room stored them (JSON).
    pub options: String,
    /// The random seed (decimal), revealed in `over`.
    pub seed: String,
    /// The seed commitment's salt (hex); empty for rooms from before commitments.
    pub salt: String,
    /// The position before the first action.
    pub start: Option<String>,
    /// How it ended.
    pub result: GameResult,
    /// Why, when the room (not the rules) ended it: `time S` (that seat ran out of time),
    /// `abandoned`, `aborted`, `left S` (that seat left the game in progress) or `away S`
    /// (that seat was away past its hold).
    pub reason: Option<String>,
    /// The turns.
    pub turns: Vec<RecordTurn>,
}

/// Why a record could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RecordError {
    /// The text does not start with [`RECORD_TITLE`].
    #[error("not an Orion Online game record (the first line must be `{RECORD_TITLE}`)")]
    NotARecord,
    /// A header the record needs is missing.
    #[error("the record has no `{0}:` header")]
    Missing(&'static str),
    /// A header whose value cannot be read.
    #[error("line {line}: bad `{header}` header: {why}")]
    BadHeader {
        line: usize,
        header: String,
        why: String,
    },
    /// A turn line that is not `N. SEAT: ITEM, … [POSITION]`.
    #[error("line {line}: {why}")]
    BadTurn { line: usize, why: String },
}

/// The words a result is shown in: `S wins (S 3, N 1)`, `S+N win`, `no winner`.
pub fn describe_result(result: &GameResult) -> String {
    let mut out = match &result.winner {
        Some(w) if w.to_string().contains('+') => format!("{w} win"),
        Some(w) => format!("{w} wins"),
        None => "no winner".to_string(),
    };
    if !result.scores.is_empty() {
        let scores: Vec<String> = result
            .scores
            .iter()
            .map(|(s, n)| format!("{s} {n}"))
            .collect();
        let _ = write!(out, " ({})", scores.join(", "));
    }
    out
}

/// Braces, brackets and commas would end a note or an item early; line breaks the line.
fn clean(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '{' | '}' | '[' | ']' | '\n' | '\r' => ' ',
            c => c,
        })
        .collect()
}

impl fmt::Display for GameRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let json = |v: &dyn erased::Json| v.json();
        writeln!(f, "{RECORD_TITLE}")?;
        writeln!(f, "room: {}", self.room)?;
        writeln!(f, "game: {}", self.game)?;
        writeln!(f, "date: {}", self.date)?;
        writeln!(f, "seats: {}", self.seats.join(" "))?;
        writeln!(f, "names: {}", json(&self.names))?;
        writeln!(f, "options: {}", self.options)?;
        writeln!(f, "seed: {}", self.seed)?;
        if !self.salt.is_empty() {
            writeln!(f, "salt: {}", self.salt)?;
        }
        if let Some(start) = &self.start {
            writeln!(f, "start: {start}")?;
        }
        writeln!(f, "result: {}", describe_result(&self.result))?;
        writeln!(f, "result-json: {}", json(&self.result))?;
        if let Some(reason) = &self.reason {
            writeln!(f, "reason: {reason}")?;
        }
        writeln!(f)?;
        for turn in &self.turns {
            write!(f, "{}. {}:", turn.number, turn.seat)?;
            for (i, item) in turn.items.iter().enumerate() {
                f.write_str(if i == 0 { " " } else { ", " })?;
                if let Some(seat) = &item.seat {
                    write!(f, "({seat}) ")?;
                }
                f.write_str(&clean(&item.action).replace(',', " "))?;
                for note in &item.notes {
                    write!(f, " {{{}}}", clean(note))?;
                }
            }
            if let Some(position) = &turn.position {
                write!(f, " [{}]", clean(position))?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

/// JSON for the headers that carry it (maps and results serialize without fail).
mod erased {
    pub trait Json {
        fn json(&self) -> String;
    }
    impl<T: serde::Serialize> Json for T {
        fn json(&self) -> String {
            serde_json::to_string(self).unwrap_or_default()
        }
    }
}

impl GameRecord {
    /// Reads a record back (what [`GameRecord`]'s `Display` writes; notes are kept, blank
    /// and `#` lines skipped).
    pub fn parse(text: &str) -> Result<GameRecord, RecordError> {
        let mut lines = text.lines().enumerate();
        match lines.next() {
            Some((_, first)) if first.trim() == RECORD_TITLE => {}
            _ => return Err(RecordError::NotARecord),
        }
        let mut headers: BTreeMap<&'static str, (usize, String)> = BTreeMap::new();
        const HEADERS: [&str; 12] = [
            "room",
            "game",
            "date",
            "seats",
            "names",
            "options",
            "seed",
            "salt",
            "start",
            "result",
            "result-json",
            "reason",
        ];
        let mut turns = Vec::new();
        for (i, line) in lines {
            let number = i + 1;
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if line.starts_with(|c: char| c.is_ascii_digit()) {
                turns.push(parse_turn(number, line)?);
                continue;
            }
            let Some((key, value)) = line.split_once(':') else {
                return Err(RecordError::BadTurn {
                    line: number,
                    why: format!("`{}` is neither a header nor a turn", short(line)),
                });
            };
            let key = key.trim();
            // Unknown headers are skipped: a later server may add some.
            if let Some(known) = HEADERS.iter().find(|h| **h == key) {
                headers.insert(known, (number, value.trim().to_string()));
            }
        }
        let mut take = |h: &'static str| headers.remove(h);
        let need = |v: Option<(usize, String)>, h: &'static str| v.ok_or(RecordError::Missing(h));
        let bad = |line: usize, header: &str, why: String| RecordError::BadHeader {
            line,
            header: header.to_string(),
            why,
        };
        let (_, room) = need(take("room"), "room")?;
        let (_, game) = need(take("game"), "game")?;
        let date = take("date").map(|(_, d)| d).unwrap_or_default();
        let (_, seats) = need(take("seats"), "seats")?;
        let names = match take("names") {
            Some((line, text)) => {
                serde_json::from_str(&text).map_err(|e| bad(line, "names", e.to_string()))?
            }
            None => BTreeMap::new(),
        };
        let (line, options) = need(take("options"), "options")?;
        serde_json::from_str::<serde_json::Value>(&options)
            .map_err(|e| bad(line, "options", e.to_string()))?;
        let (line, seed) = need(take("seed"), "seed")?;
        seed.parse::<u64>()
            .map_err(|e| bad(line, "seed", e.to_string()))?;
        let salt = take("salt").map(|(_, s)| s).unwrap_or_default();
        let start = take("start").map(|(_, s)| s);
        let (line, result) = need(take("result-json"), "result-json")?;
        let result: GameResult =
            serde_json::from_str(&result).map_err(|e| bad(line, "result-json", e.to_string()))?;
        let reason = take("reason").map(|(_, r)| r);
        Ok(GameRecord {
            room,
            game,
            date,
            seats: seats.split_whitespace().map(str::to_string).collect(),
            names,
            options,
            seed,
            salt,
            start,
            result,
            reason,
            turns,
        })
    }

    /// The seed as a number (checked by [`GameRecord::parse`]).
    pub fn seed(&self) -> u64 {
        self.seed.parse().unwrap_or(0)
    }
}

/// At most 40 characters of `text`, for error messages.
fn short(text: &str) -> String {
    text.chars().take(40).collect()
}

/// `N. SEAT: ITEM {NOTE}, (SEAT) ITEM … [POSITION]`.
fn parse_turn(line: usize, text: &str) -> Result<RecordTurn, RecordError> {
    let bad = |why: String| RecordError::BadTurn { line, why };
    let (number, rest) = text
        .split_once('.')
        .ok_or_else(|| bad("a turn starts with its number and a dot (`1. S: C4R`)".into()))?;
    let number: u32 = number
        .trim()
        .parse()
        .map_err(|_| bad(format!("`{}` is not a turn number", short(number))))?;
    let (seat, mut rest) = rest
        .split_once(':')
        .ok_or_else(|| bad("the turn's seat ends with a colon (`1. S: C4R`)".into()))?;
    let seat = seat.trim().to_string();
    if seat.is_empty() || seat.contains(char::is_whitespace) {
        return Err(bad(format!("`{}` is not a seat", short(&seat))));
    }
    let mut position = None;
    if let Some(open) = rest.rfind('[') {
        let close = rest[open..]
            .find(']')
            .ok_or_else(|| bad("the position's `[` has no `]`".into()))?;
        position = Some(rest[open + 1..open + close].trim().to_string());
        if !rest[open + close + 1..].trim().is_empty() {
            return Err(bad("nothing may follow the position".into()));
        }
        rest = &rest[..open];
    }
    let mut items = Vec::new();
    // Split on commas outside braces; notes are taken out of each item.
    let mut depth = 0u32;
    let mut current = String::new();
    let mut pieces = Vec::new();
    for c in rest.chars() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => return Err(bad("a `}` closes no note".into())),
            '}' => depth -= 1,
            ',' if depth == 0 => {
                pieces.push(std::mem::take(&mut current));
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    if depth != 0 {
        return Err(bad("a note's `{` has no `}`".into()));
    }
    pieces.push(current);
    for piece in pieces {
        let mut action = String::new();
        let mut notes = Vec::new();
        let mut note: Option<String> = None;
        for c in piece.chars() {
            match (c, &mut note) {
                ('{', None) => note = Some(String::new()),
                ('}', Some(n)) => {
                    notes.push(n.trim().to_string());
                    note = None;
                }
                (c, Some(n)) => n.push(c),
                (c, None) => action.push(c),
            }
        }
        let mut action = action.trim();
        let mut by = None;
        if let Some(inner) = action.strip_prefix('(') {
            let (who, after) = inner
                .split_once(')')
                .ok_or_else(|| bad(format!("`{}`: the seat's `(` has no `)`", short(action))))?;
            by = Some(who.trim().to_string());
            action = after.trim();
        }
        if action.is_empty() {
            if by.is_none() && notes.is_empty() && items.is_empty() {
                // A turn with no actions (`3. N:`), as a pass by the clock may leave.
                continue;
            }
            return Err(bad("an empty action between commas".into()));
        }
        items.push(RecordItem {
            seat: by,
            action: action.to_string(),
            notes,
        });
    }
    Ok(RecordTurn {
        number,
        seat,
        items,
        position,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seat::{Seat, Winner};

    fn record() -> GameRecord {
        let mut scores = BTreeMap::new();
        scores.insert(Seat::S, 3);
        scores.insert(Seat::N, 1);
        GameRecord {
            room: "r7".into(),
            game: "hydra-2".into(),
            date: "2026-11-23T05:10:02Z".into(),
            seats: vec!["S".into(), "N".into()],
            names: [("S".into(), "al, {x}".into()), ("N".into(), "bob".into())].into(),
            options: r#"{"clicks":2}"#.into(),
            seed: "42".into(),
            salt: "ab".into(),
            start: Some("C1w:R1".into()),
            result: GameResult {
                winner: Some(Winner::seat(Seat::S)),
                scores: scores.into_iter().collect(),
                orion: Default::default(),
                end: None,
                orbit: Default::default(),
            },
            reason: None,
            turns: vec![
                RecordTurn {
                    number: 1,
                    seat: "S".into(),
                    items: vec![
                        RecordItem {
                            seat: None,
                            action: "roll".into(),
                            notes: vec!["rolled 3".into()],
                        },
                        RecordItem {
                            seat: None,
                            action: "C4R R7".into(),
                            notes: vec![],
                        },
                        RecordItem {
                            seat: Some("N".into()),
                            action: "claim".into(),
                            notes: vec!["chain B".into(), "claimed".into()],
                        },
                    ],
                    position: Some("C1w:R1 D4e:B2".into()),
                },
                RecordTurn {
                    number: 2,
                    seat: "N".into(),
                    items: vec![],
                    position: None,
                },
            ],
        }
    }

    #[test]
    fn a_record_reads_back_as_it_was_written() {
        let record = record();
        let text = record.to_string();
        assert!(
            text.contains(
                "\n1. S: roll {rolled 3}, C4R R7, (N) claim {chain B} {claimed} [C1w:R1 D4e:B2]\n"
            ),
            "{text}"
        );
        assert!(text.contains("result: S wins (S 3, N 1)"), "{text}");
        assert_eq!(GameRecord::parse(&text).unwrap(), record);
    }

    #[test]
    fn bad_records_say_what_is_wrong() {
        assert_eq!(GameRecord::parse("hello"), Err(RecordError::NotARecord));
        let text = record().to_string();
        let no_seed = text.replace("seed: 42\n", "");
        assert_eq!(
            GameRecord::parse(&no_seed),
            Err(RecordError::Missing("seed"))
        );
        let bad_seed = text.replace("seed: 42", "seed: many");
        assert!(matches!(
            GameRecord::parse(&bad_seed),
            Err(RecordError::BadHeader { header, .. }) if header == "seed"
        ));
        let bad_turn = text.replace("1. S: roll", "1. S roll");
        assert!(matches!(
            GameRecord::parse(&bad_turn),
            Err(RecordError::BadTurn { .. }) | Err(RecordError::BadHeader { .. })
        ));
        let open_note = text.replace("{rolled 3}", "{rolled 3");
        assert!(matches!(
            GameRecord::parse(&open_note),
            Err(RecordError::BadTurn { line: 14, .. })
        ));
    }
}
