//! What a player types, read into commands: clicks in either notation (`C4R`, `c+`,
//! `C4L, D4R`, `c+d-`), with an optional piece (`C4R R7`); a slot to place on (`C2n`,
//! `place C2n from A1e`); words for the rest of a turn (`end`, `roll`, `three`, `claim`),
//! chat (`say …` or a leading `'`), and the lobby's commands. Errors say what was wrong.

use orion_engine::{games, parse_moves, parse_piece, parse_slot, Click, Piece, Slot};
use orion_protocol::{RoomOptions, Seat as WireSeat};
use serde_json::{Map, Value};

/// One typed command.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
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
    /// Say something to the room.
    Say(String),
    /// Quick match.
    Quick {
        /// Game id.
        game: String,
        /// Players.
        players: Option<u8>,
    },
    /// Open a room.
    Create {
        /// Game id.
        game: String,
        /// Options object.
        options: Option<RoomOptions>,
        /// Unlisted.
        private: bool,
    },
    /// Take a seat in a room.
    Join {
        /// Room id.
        room: String,
        /// Wanted seat.
        seat: Option<WireSeat>,
    },
    /// Join a private room by its invite code.
    Code(String),
    /// Watch a room.
    Watch(String),
    /// Ready to start.
    Ready,
    /// Leave the room, back to the lobby.
    Leave,
    /// A game's leaderboard, or a puzzle's fewest clicks, from after a place.
    Top {
        /// Game or puzzle id.
        game: String,
        /// The page after this place.
        after: Option<u32>,
    },
    /// Claim the name this client said hello with, with a password.
    Register(String),
    /// Become a claimed account's player (the client keeps its token from then on).
    /// Revoke this account's tokens on every other device.
    LogoutAll,
    Login {
        /// The account's name.
        name: String,
        /// Its password.
        password: String,
    },
    /// A player's finished games (one's own when no player is named).
    Games {
        /// Name or player id.
        player: Option<String>,
        /// Only this game.
        game: Option<String>,
        /// The page after this room.
        before: Option<String>,
    },
    /// Save a finished game's record as `ROOM.txt`.
    Export(String),
    /// Offer or accept a rematch (`false`: decline) in the finished room on screen.
    Rematch(bool),
    /// Show the help.
    Help,
    /// Quit the program.
    Quit,
}

/// The id of a game for a quick match: puzzles are played alone, in a room of one's own.
fn game_id(word: &str) -> Result<String, String> {
    if let Some(p) = games::find_puzzle(word) {
        return Err(format!(
            "{} is a puzzle for one player: create {} to play it",
            p.id(),
            p.id()
        ));
    }
    room_game_id(word)
}

/// The other game systems on the lobby (ORBIT.md, ORBS.md), with their player counts.
const SYSTEMS: [(&str, u8, u8); 2] = [("orbit", 2, 2), ("orbs", 2, 6)];

/// The id of a game or puzzle a room can be created for.
fn room_game_id(word: &str) -> Result<String, String> {
    if let Some((id, _, _)) = SYSTEMS
        .iter()
        .find(|(id, _, _)| id.eq_ignore_ascii_case(word))
    {
        return Ok(id.to_string());
    }
    games::find_any(word)
        .map(|g| g.id().to_string())
        .ok_or_else(|| {
            let ids = |list: &[&dyn orion_engine::Rules]| {
                list.iter().map(|g| g.id()).collect::<Vec<_>>().join(", ")
            };
            format!(
                "unknown game `{word}` (games: {}, orbit, orbs; puzzles: {})",
                ids(games::ALL),
                ids(games::PUZZLES)
            )
        })
}

fn option_value(key: &str, value: &str) -> Result<Value, String> {
    // Orbs: holes out of play as a list, a start position with commas for its spaces.
    if key == "holes" {
        let holes = value.split(',').filter(|h| !h.is_empty());
        return Ok(Value::from(holes.map(str::to_string).collect::<Vec<_>>()));
    }
    if key == "position" {
        return Ok(Value::String(value.replace(',', " ")));
    }
    if key == "die" {
        let faces: Result<Vec<u64>, _> =
            value.split(',').map(|f| f.trim().parse::<u64>()).collect();
        return faces
            .map(Value::from)
            .map_err(|_| format!("die=`{value}`: write faces like die=1,2,2,3,4,5"));
    }
    if let Ok(n) = value.parse::<u64>() {
        return Ok(Value::from(n));
    }
    match value {
        "true" => Ok(Value::Bool(true)),
        "false" => Ok(Value::Bool(false)),
        _ => Ok(Value::String(value.to_string())),
    }
}

/// Reads one line.
pub fn parse(line: &str) -> Result<Command, String> {
    let line = line.trim();
    if line.is_empty() {
        return Err("type a click (C4R or c+), a slot, or a command (help)".to_string());
    }
    if let Some(rest) = line.strip_prefix('\'') {
        return Ok(Command::Say(rest.trim().to_string()));
    }
    let mut words = line.split_whitespace();
    let first_raw = words.next().unwrap_or_default();
    let first = first_raw.to_ascii_lowercase();
    let rest: Vec<&str> = words.collect();
    let arg = |i: usize, what: &str| -> Result<String, String> {
        rest.get(i)
            .map(|s| s.to_string())
            .ok_or_else(|| format!("{first}: missing {what}"))
    };
    match first.as_str() {
        "end" | "done" | "pass" | "e" if rest.is_empty() => return Ok(Command::End),
        "roll" | "die" if rest.is_empty() => return Ok(Command::Roll),
        "three" | "3" if rest.is_empty() => return Ok(Command::Three),
        "claim" | "!" if rest.is_empty() => return Ok(Command::Claim),
        "ready" if rest.is_empty() => return Ok(Command::Ready),
        "leave" if rest.is_empty() => return Ok(Command::Leave),
        "help" | "?" | "h" if rest.is_empty() => return Ok(Command::Help),
        "quit" | "exit" | "q" if rest.is_empty() => return Ok(Command::Quit),
        "say" | "chat" => {
            let text = line[first.len()..].trim();
            if text.is_empty() {
                return Err("say what? (say hello)".to_string());
            }
            return Ok(Command::Say(text.to_string()));
        }
        "quick" => {
            let game = game_id(&arg(0, "game (quick hydra-2 [players])")?)?;
            let (low, high) = SYSTEMS
                .iter()
                .find(|(id, _, _)| *id == game)
                .map_or((2, 4), |&(_, low, high)| (low, high));
            let players = match rest.get(1) {
                Some(n) => Some(
                    n.parse::<u8>()
                        .ok()
                        .filter(|n| (low..=high).contains(n))
                        .ok_or_else(|| {
                            format!("quick: players must be {low} to {high}, not `{n}`")
                        })?,
                ),
                None => None,
            };
            return Ok(Command::Quick { game, players });
        }
        "create" | "new" => {
            let game = room_game_id(&arg(0, "game or puzzle (create orion players=3)")?)?;
            let mut private = false;
            let mut options = Map::new();
            for w in &rest[1..] {
                if w.eq_ignore_ascii_case("private") {
                    private = true;
                } else if let Some((k, v)) = w.split_once('=') {
                    options.insert(k.to_string(), option_value(k, v)?);
                } else {
                    return Err(format!(
                        "create: `{w}` is not an option (write key=value, like clicks=2, or private)"
                    ));
                }
            }
            let options = match options.is_empty() {
                true => None,
                false => Some(
                    orion_protocol::from_value::<RoomOptions>(&Value::Object(options))
                        .map_err(|e| format!("create: {e}"))?,
                ),
            };
            return Ok(Command::Create {
                game,
                options,
                private,
            });
        }
        "join" => {
            return Ok(Command::Join {
                room: arg(0, "room id (join ROOM [SEAT])")?,
                seat: match rest.get(1) {
                    Some(s) => Some(
                        WireSeat::parse(&s.to_ascii_uppercase())
                            .ok_or_else(|| format!("join: `{s}` is not a seat (S, W, N, E)"))?,
                    ),
                    None => None,
                },
            })
        }
        "code" | "invite" => return Ok(Command::Code(arg(0, "invite code")?)),
        "top" | "leaderboard" => {
            let game = room_game_id(&arg(0, "game or puzzle (top hydra-2 [after])")?)?;
            let after = match rest.get(1) {
                Some(n) => Some(
                    n.parse::<u32>()
                        .map_err(|_| format!("top: `{n}` is not a place (top {game} 50)"))?,
                ),
                None => None,
            };
            return Ok(Command::Top { game, after });
        }
        "register" if rest.len() == 1 => return Ok(Command::Register(rest[0].to_string())),
        "register" => {
            return Err("register PASSWORD: one word, 8 to 128 characters, claims your name".into())
        }
        "login" if rest.len() == 2 => {
            return Ok(Command::Login {
                name: rest[0].to_string(),
                password: rest[1].to_string(),
            })
        }
        "login" => return Err("login NAME PASSWORD: become your claimed name's player".into()),
        "logout" if rest == ["all"] => return Ok(Command::LogoutAll),
        "logout" => return Err("logout all: log out every other device of your account".into()),
        "games" | "archive" => {
            // games [PLAYER] [game=GAME] [before=ROOM]
            let mut player = None;
            let (mut game, mut before) = (None, None);
            for w in &rest {
                match w.split_once('=') {
                    Some(("game", g)) => game = Some(room_game_id(g)?),
                    Some(("before", b)) => before = Some(b.to_string()),
                    Some((k, _)) => {
                        return Err(format!("games: unknown `{k}=` (game=GAME, before=ROOM)"))
                    }
                    None if player.is_none() => player = Some(w.to_string()),
                    None => return Err("games: one player at a time (games NAME)".to_string()),
                }
            }
            return Ok(Command::Games {
                player,
                game,
                before,
            });
        }
        "export" => return Ok(Command::Export(arg(0, "room id (export ROOM)")?)),
        "rematch" => {
            return match rest.as_slice() {
                [] | ["yes"] | ["accept"] => Ok(Command::Rematch(true)),
                ["no"] | ["decline"] => Ok(Command::Rematch(false)),
                _ => Err("rematch: `rematch` offers or accepts, `rematch no` declines".into()),
            }
        }
        "watch" | "spectate" => return Ok(Command::Watch(arg(0, "room id")?)),
        "place" | "p" => {
            let slot = parse_slot(&arg(0, "slot (place C2n)")?).map_err(|e| e.to_string())?;
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
                return Ok(Command::Clicks(clicks, Some(piece)));
            }
        }
    }
    match parse_moves(line) {
        Ok(clicks) if !clicks.is_empty() => Ok(Command::Clicks(clicks, None)),
        Ok(_) => Ok(Command::End),
        Err(e) => Err(format!(
            "`{line}` is not a click, a slot or a command ({e}); type help"
        )),
    }
}

fn place_from(slot: Slot, rest: &[&str]) -> Result<Command, String> {
    match rest {
        [] => Ok(Command::Place { slot, from: None }),
        [w, from] if w.eq_ignore_ascii_case("from") => Ok(Command::Place {
            slot,
            from: Some(parse_slot(from).map_err(|e| e.to_string())?),
        }),
        _ => Err(format!(
            "after the slot write nothing, or `from SLOT` (place {slot} from A1e)"
        )),
    }
}

/// The help text, one command a line.
pub const HELP: &[&str] = &[
    "clicks: C4R / C4L (booklet) or c+ / c- (letters a..y); several: C4L, D4R or c+d-",
    "name the piece: C4R R7 · place: C2n (or place C2n from A1e with all 20 out)",
    "keys: arrows move the cursor, [ turns it left, ] right; Tab picks a slot, Enter places",
    "end (pass) · roll · three · claim or ! · say TEXT or 'TEXT · leave · quit",
    "lobby: quick GAME [N] · create GAME [private] [clicks=N players=N claim_window=auto|MS turn_clock=MS]",
    "       create PUZZLE (aquila, orbit-b, aquarius…): a room of your own, it starts at once",
    "       join ROOM [SEAT] · code INVITE · watch ROOM · ready · Up/Down + Enter joins (w watches)",
    "       top GAME [after]: the ratings board (a puzzle: fewest clicks) · create GAME rated=false",
    "account: register PASSWORD claims your name · login NAME PASSWORD on another device",
    "orbit: quick orbit · create orbit · moves h8, pass, black / white (the choice after the opening)",
    "orbs: quick orbs [2-6] · create orbs players=4 teams=true void=true holes=i5,i6 · moves d2-e6 · draw · draw accept",
    "archive: games [NAME] [game=GAME] [before=ROOM] · export ROOM (saves ROOM.txt; orion replay ROOM.txt)",
    "after the end: rematch (offer or accept) · rematch no",
];

#[cfg(test)]
mod tests {
    use super::*;
    use orion_engine::parse_click;

    fn clicks(text: &str) -> Vec<Click> {
        parse_moves(text).unwrap()
    }

    #[test]
    fn account_and_leaderboard_commands() {
        assert_eq!(
            parse("top Hydra-2"),
            Ok(Command::Top {
                game: "hydra-2".into(),
                after: None
            })
        );
        assert_eq!(
            parse("top aquila 50"),
            Ok(Command::Top {
                game: "aquila".into(),
                after: Some(50)
            })
        );
        assert!(parse("top nogame").is_err());
        assert!(parse("top orion x").unwrap_err().contains("not a place"));
        assert_eq!(
            parse("register s3cret-pass"),
            Ok(Command::Register("s3cret-pass".into()))
        );
        assert!(parse("register").is_err());
        assert_eq!(parse("logout all"), Ok(Command::LogoutAll));
        assert!(parse("logout").is_err());
        assert_eq!(
            parse("login Ann s3cret-pass"),
            Ok(Command::Login {
                name: "Ann".into(),
                password: "s3cret-pass".into()
            })
        );
        assert!(parse("login Ann")
            .unwrap_err()
            .contains("login NAME PASSWORD"));
    }

    #[test]
    fn clicks_in_both_notations() {
        assert_eq!(parse("C4R"), Ok(Command::Clicks(clicks("C4R"), None)));
        assert_eq!(
            parse("c+"),
            Ok(Command::Clicks(vec![parse_click("c+").unwrap()], None))
        );
        assert_eq!(parse("c+d-"), Ok(Command::Clicks(clicks("C5R, D5L"), None)));
        assert_eq!(
            parse("C4L, D4R"),
            Ok(Command::Clicks(clicks("C4L, D4R"), None))
        );
        assert_eq!(
            parse("C4R R7"),
            Ok(Command::Clicks(clicks("C4R"), parse_piece("R7").ok()))
        );
    }

    #[test]
    fn slots_are_placements() {
        let c2n = parse_slot("C2n").unwrap();
        assert_eq!(
            parse("C2n"),
            Ok(Command::Place {
                slot: c2n,
                from: None
            })
        );
        assert_eq!(
            parse("c3s"),
            Ok(Command::Place {
                slot: c2n,
                from: None
            })
        );
        assert_eq!(
            parse("place C2n from A1e"),
            Ok(Command::Place {
                slot: c2n,
                from: parse_slot("A1e").ok()
            })
        );
    }

    #[test]
    fn words_for_the_turn_and_the_lobby() {
        assert_eq!(parse("end"), Ok(Command::End));
        assert_eq!(parse("pass"), Ok(Command::End));
        assert_eq!(parse("!"), Ok(Command::Claim));
        assert_eq!(parse("three"), Ok(Command::Three));
        assert_eq!(parse("say good move"), Ok(Command::Say("good move".into())));
        assert_eq!(parse("'gg"), Ok(Command::Say("gg".into())));
        assert_eq!(
            parse("quick hydra 2"),
            Ok(Command::Quick {
                game: "hydra-2".into(),
                players: Some(2)
            })
        );
        assert_eq!(
            parse("create orion private players=3 claim_window=auto"),
            Ok(Command::Create {
                game: "orion".into(),
                options: Some(RoomOptions {
                    players: Some(Some(3)),
                    claim_window: Some(orion_protocol::ClaimWindow::Auto),
                    ..RoomOptions::default()
                }),
                private: true
            })
        );
        assert_eq!(
            parse("join r7 n"),
            Ok(Command::Join {
                room: "r7".into(),
                seat: Some(WireSeat::N)
            })
        );
    }

    #[test]
    fn errors_say_what_was_wrong() {
        let e = parse("F9R").unwrap_err();
        assert!(e.contains("F9R"), "{e}");
        assert!(parse("quick chess")
            .unwrap_err()
            .contains("unknown game `chess`"));
        assert!(parse("quick hydra-4 9").unwrap_err().contains("2 to 4"));
        assert!(parse("   ").is_err());
    }

    #[test]
    fn orbit_and_orbs_rooms_with_their_options() {
        assert_eq!(
            parse("quick Orbs 5"),
            Ok(Command::Quick {
                game: "orbs".into(),
                players: Some(5)
            })
        );
        assert!(parse("quick orbs 7").unwrap_err().contains("2 to 6"));
        assert!(parse("quick orbit 3").unwrap_err().contains("2 to 2"));
        let Ok(Command::Create { game, options, .. }) =
            parse("create orbs players=4 teams=true holes=i5,i6 position=a1:RW,q1:BW")
        else {
            panic!("create orbs")
        };
        assert_eq!(game, "orbs");
        let options = options.expect("options");
        assert_eq!(options.players, Some(Some(4)));
        assert_eq!(options.extra["teams"], Value::Bool(true));
        assert_eq!(options.extra["holes"], serde_json::json!(["i5", "i6"]));
        assert_eq!(options.extra["position"], "a1:RW q1:BW");
        assert!(
            matches!(parse("create orbit"), Ok(Command::Create { game, .. }) if game == "orbit")
        );
    }

    #[test]
    fn a_puzzle_is_created_never_quick_matched() {
        assert_eq!(
            parse("create Aquila"),
            Ok(Command::Create {
                game: "aquila".into(),
                options: None,
                private: false
            })
        );
        assert!(
            matches!(parse("new aquarius"), Ok(Command::Create { game, .. }) if game == "aquarius")
        );
        let e = parse("quick orbit-b").unwrap_err();
        assert!(e.contains("puzzle") && e.contains("create orbit-b"), "{e}");
        let e = parse("create sudoku").unwrap_err();
        assert!(e.contains("puzzles: aquila"), "{e}");
    }
}
