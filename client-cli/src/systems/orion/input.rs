//! What a player types in an ORION room, read into moves: clicks in either notation (`C4R`,
//! `c+`, `C4L, D4R`, `c+d-`), with an optional piece (`C4R R7`); a slot to place on (`C2n`,
//! `place C2n from A1e`); words for the rest of a turn (`end`, `roll`, `three`, `claim`).
//! Errors say what was wrong. The lobby's commands are `tui::input`'s.

use orion_engine::{parse_moves, parse_piece, parse_slot, Click, Piece, Slot};
use orion_protocol::Request;

/// One typed ORION move.
#[derive(Clone, Debug, PartialEq)]
pub enum Move {
    /// Clicks to send in order, the first naming a piece when given.
    Clicks(Vec<Click>, Option<Piece>),
    /// Place a piece (or move one `from` a slot when all 20 are on the board).
    Place {
        /// Where.
        slot: Slot,
        /// From where, with all 20 on the board.
        from: Option<Slot>,
    },
    /// End the turn.
    End,
    /// Throw the die.
    Roll,
    /// Take three clicks.
    Three,
    /// Claim a chain.
    Claim,
    /// Algol: choose one's secret man.
    Secret(Piece),
    /// Algol: challenge a suspect (name the piece taken for the secret man).
    Challenge(Piece),
    /// A puzzle: take the last click back.
    Undo,
    /// A puzzle: show the next click of an optimal line.
    Hint,
}

/// ORION's lines of the help: its moves and keys, its rooms' options, its puzzles (the
/// lobby's first lines: ORION is the default system).
pub const HELP: &[&str] = &[
    "clicks: C4R / C4L (booklet) or c+ / c- (letters a..y); several: C4L, D4R or c+d-",
    "name the piece: C4R R7 · place: C2n (or place C2n from A1e with all 20 out)",
    "keys: arrows move the cursor, [ turns it left, ] right; Tab picks a slot, Enter places",
    "end (pass) · roll · three · claim or ! · say TEXT or 'TEXT · leave · quit",
    "algol: secret R7 chooses your secret man · challenge B3 names a suspect",
    "a puzzle: undo takes your last click back · hint shows the next click of a shortest line",
    "lobby: quick GAME [N] (cancel stops waiting) · create GAME [private] [clicks=N players=N claim_window=auto|MS turn_clock=MS]",
    "       create PUZZLE (aquila, orbit-b, aquarius…): a room of your own, it starts at once",
    "       join ROOM [SEAT] · code INVITE · watch ROOM · ready · Up/Down + Enter joins (w watches)",
    "       top GAME [after]: the ratings board (a puzzle: fewest clicks) · create GAME rated=false",
];

/// Reads one line as a move.
pub fn parse(line: &str) -> Result<Move, String> {
    let line = line.trim();
    let mut words = line.split_whitespace();
    let first_raw = words.next().unwrap_or_default();
    let first = first_raw.to_ascii_lowercase();
    let rest: Vec<&str> = words.collect();
    match first.as_str() {
        "end" | "done" | "pass" | "e" if rest.is_empty() => return Ok(Move::End),
        "roll" | "die" if rest.is_empty() => return Ok(Move::Roll),
        "three" | "3" if rest.is_empty() => return Ok(Move::Three),
        "claim" | "!" if rest.is_empty() => return Ok(Move::Claim),
        "undo" if rest.is_empty() => return Ok(Move::Undo),
        "hint" if rest.is_empty() => return Ok(Move::Hint),
        "secret" | "challenge" => {
            let [piece] = rest[..] else {
                return Err(format!("{first}: name one piece ({first} R7)"));
            };
            let piece = parse_piece(piece).map_err(|e| format!("{first}: {e}"))?;
            return Ok(if first == "secret" {
                Move::Secret(piece)
            } else {
                Move::Challenge(piece)
            });
        }
        "place" | "p" => {
            let slot = rest
                .first()
                .ok_or_else(|| format!("{first}: missing slot (place C2n)"))?;
            let slot = parse_slot(slot).map_err(|e| e.to_string())?;
            return place_from(slot, &rest[1..]);
        }
        _ => {}
    }
    // A slot alone (or with `from`) is a placement.
    if let Ok(slot) = parse_slot(first_raw) {
        return place_from(slot, &rest);
    }
    // Clicks, with an optional piece named at the end.
    if let Some((moves, last)) = line.rsplit_once(char::is_whitespace) {
        if let (Ok(piece), Ok(clicks)) = (parse_piece(last), parse_moves(moves)) {
            if !clicks.is_empty() {
                return Ok(Move::Clicks(clicks, Some(piece)));
            }
        }
    }
    match parse_moves(line) {
        Ok(clicks) if !clicks.is_empty() => Ok(Move::Clicks(clicks, None)),
        Ok(_) => Ok(Move::End),
        Err(e) => Err(format!(
            "`{line}` is not a click, a slot or a command ({e}); type help"
        )),
    }
}

fn place_from(slot: Slot, rest: &[&str]) -> Result<Move, String> {
    match rest {
        [] => Ok(Move::Place { slot, from: None }),
        [w, from] if w.eq_ignore_ascii_case("from") => Ok(Move::Place {
            slot,
            from: Some(parse_slot(from).map_err(|e| e.to_string())?),
        }),
        _ => Err(format!(
            "after the slot write nothing, or `from SLOT` (place {slot} from A1e)"
        )),
    }
}

/// The requests that make `mv` in `room`.
pub fn requests(room: &str, mv: &Move) -> Vec<Request> {
    let room = room.to_string();
    match mv {
        Move::Clicks(clicks, piece) => clicks
            .iter()
            .enumerate()
            .map(|(i, c)| Request::Click {
                room: room.clone(),
                click: c.to_string(),
                piece: if i == 0 {
                    piece.map(|p| p.to_string())
                } else {
                    None
                },
            })
            .collect(),
        Move::Place { slot, from } => vec![Request::Place {
            room,
            slot: slot.to_string(),
            from: from.map(|s| s.to_string()),
        }],
        Move::End => vec![Request::EndTurn { room }],
        Move::Roll => vec![Request::Roll { room }],
        Move::Three => vec![Request::Three { room }],
        Move::Claim => vec![Request::Claim { room }],
        Move::Secret(piece) => vec![Request::Secret {
            room,
            piece: piece.to_string(),
        }],
        Move::Challenge(piece) => vec![Request::Challenge {
            room,
            piece: piece.to_string(),
        }],
        Move::Undo => vec![Request::Undo { room }],
        Move::Hint => vec![Request::Hint { room }],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use orion_engine::parse_click;

    fn clicks(text: &str) -> Vec<Click> {
        parse_moves(text).unwrap()
    }

    #[test]
    fn clicks_in_both_notations() {
        assert_eq!(parse("C4R"), Ok(Move::Clicks(clicks("C4R"), None)));
        assert_eq!(
            parse("c+"),
            Ok(Move::Clicks(vec![parse_click("c+").unwrap()], None))
        );
        assert_eq!(parse("c+d-"), Ok(Move::Clicks(clicks("C5R, D5L"), None)));
        assert_eq!(
            parse("C4L, D4R"),
            Ok(Move::Clicks(clicks("C4L, D4R"), None))
        );
        assert_eq!(
            parse("C4R R7"),
            Ok(Move::Clicks(clicks("C4R"), parse_piece("R7").ok()))
        );
    }

    #[test]
    fn slots_are_placements() {
        let c2n = parse_slot("C2n").unwrap();
        assert_eq!(
            parse("C2n"),
            Ok(Move::Place {
                slot: c2n,
                from: None
            })
        );
        assert_eq!(
            parse("c3s"),
            Ok(Move::Place {
                slot: c2n,
                from: None
            })
        );
        assert_eq!(
            parse("place C2n from A1e"),
            Ok(Move::Place {
                slot: c2n,
                from: parse_slot("A1e").ok()
            })
        );
    }

    #[test]
    fn words_for_the_turn() {
        assert_eq!(parse("end"), Ok(Move::End));
        assert_eq!(parse("undo"), Ok(Move::Undo));
        assert_eq!(parse("hint"), Ok(Move::Hint));
        assert_eq!(
            requests("r", &Move::Undo),
            vec![Request::Undo { room: "r".into() }]
        );
        assert_eq!(parse("pass"), Ok(Move::End));
        assert_eq!(parse("!"), Ok(Move::Claim));
        assert_eq!(parse("three"), Ok(Move::Three));
        assert_eq!(
            parse("secret R7"),
            Ok(Move::Secret(parse_piece("R7").unwrap()))
        );
        assert_eq!(
            requests("r", &parse("challenge b3").unwrap()),
            vec![Request::Challenge {
                room: "r".into(),
                piece: "B3".into()
            }]
        );
        assert!(parse("secret").unwrap_err().contains("name one piece"));
        assert!(parse("challenge R7 B3")
            .unwrap_err()
            .contains("name one piece"));
    }

    #[test]
    fn errors_say_what_was_wrong() {
        let e = parse("F9R").unwrap_err();
        assert!(e.contains("F9R"), "{e}");
    }
}
