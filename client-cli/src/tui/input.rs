//! What a player types, read into the lobby's commands: chat (`say …` or a leading `'`),
//! quick match, create, join, watch, the boards, the archive, accounts, ready, leave, help and
//! quit. A line that is no command is a move, read by the room's game system
//! (`systems::Room::typed`). Errors say what was wrong.

use crate::systems;
use orion_protocol::{RoomOptions, Seat as WireSeat};
use serde_json::{Map, Value};

/// One typed command.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Say something to the room.
    Say(String),
    /// Stop waiting for a quick match.
    Unqueue,
    /// Quick match; with `days`, a correspondence seek (`quick hydra-2 days=3`).
    Quick {
        /// Game id.
        game: String,
        /// Players.
        players: Option<u8>,
        /// Days a turn: a correspondence seek, waiting in the lobby until taken.
        days: Option<u8>,
    },
    /// Plan a whole turn (`turn A2L B2L`): the moves are tried on the server's copy of the
    /// room and the board they lead to shown; nothing is played until `send`.
    Turn(Vec<String>),
    /// Send the planned turn, its moves in order.
    SendPlan,
    /// Drop the planned turn.
    DropPlan,
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
    /// List one's games, live and by correspondence, one's turn first.
    Mine,
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
    /// Seat a computer player of this level (1 to 8) in the waiting room on screen.
    Bot(u8),
    /// Show the help.
    Help,
    /// Quit the program.
    Quit,
}

/// The game a quick match is for, with its system: puzzles are played alone, in a room of
/// one's own.
fn quick_game(word: &str) -> Result<(&'static dyn systems::System, String), String> {
    let (system, id) = room_game(word)?;
    if system.puzzles().contains(&id.as_str()) {
        return Err(format!(
            "{id} is a puzzle for one player: create {id} to play it"
        ));
    }
    Ok((system, id))
}

/// The game or puzzle a room can be created for, with its system.
fn room_game(word: &str) -> Result<(&'static dyn systems::System, String), String> {
    systems::named(word).ok_or_else(|| {
        let list = |ids: Vec<&str>| ids.join(", ");
        let games = systems::ALL.iter().flat_map(|s| s.games()).collect();
        let puzzles = systems::ALL.iter().flat_map(|s| s.puzzles()).collect();
        format!(
            "unknown game `{word}` (games: {}; puzzles: {})",
            list(games),
            list(puzzles)
        )
    })
}

/// The id of a game or puzzle a room can be created for.
fn room_game_id(word: &str) -> Result<String, String> {
    room_game(word).map(|(_, id)| id)
}

/// A `create` option's value: the game system's own reading where it has one (a list, a
/// position), else a number, a flag or a word.
fn option_value(system: &dyn systems::System, key: &str, value: &str) -> Result<Value, String> {
    if let Some(v) = system.option_value(key, value) {
        return v;
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

/// Reads one line: a command, `None` for a line that is no command (a move, for the room's
/// game system to read), or what is wrong with a command.
pub fn parse(line: &str) -> Result<Option<Command>, String> {
    let line = line.trim();
    if line.is_empty() {
        return Err("type a click (C4R or c+), a slot, or a command (help)".to_string());
    }
    let mut words = line.split_whitespace();
    let first = words.next().unwrap_or_default().to_ascii_lowercase();
    let alone = words.next().is_none();
    let is_command = line.starts_with('\'')
        || matches!(
            first.as_str(),
            "say"
                | "chat"
                | "quick"
                | "create"
                | "new"
                | "join"
                | "code"
                | "invite"
                | "top"
                | "leaderboard"
                | "register"
                | "login"
                | "logout"
                | "games"
                | "archive"
                | "export"
                | "rematch"
                | "bot"
                | "watch"
                | "spectate"
                | "turn"
                | "plan"
        )
        || (alone
            && matches!(
                first.as_str(),
                "ready"
                    | "mine"
                    | "leave"
                    | "help"
                    | "?"
                    | "h"
                    | "quit"
                    | "exit"
                    | "q"
                    | "cancel"
                    | "unqueue"
                    | "send"
                    | "drop"
            ));
    if is_command {
        command(line).map(Some)
    } else {
        Ok(None)
    }
}

/// Reads a line [`parse`] has found to be a command.
fn command(line: &str) -> Result<Command, String> {
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
        "ready" if rest.is_empty() => return Ok(Command::Ready),
        "leave" if rest.is_empty() => return Ok(Command::Leave),
        "cancel" | "unqueue" if rest.is_empty() => return Ok(Command::Unqueue),
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
            let (system, game) = quick_game(&arg(0, "game (quick hydra-2 [players] [days=N])")?)?;
            let (low, high) = system.players(&game);
            let mut players = None;
            let mut days = None;
            for w in rest.iter().skip(1) {
                if let Some(d) = w.strip_prefix("days=") {
                    days = Some(d.parse::<u8>().map_err(|_| {
                        format!(
                            "quick: days=N takes the days a turn (1, 2, 3, 5, 7 or 14), not `{d}`"
                        )
                    })?);
                } else {
                    players = Some(
                        w.parse::<u8>()
                            .ok()
                            .filter(|n| (low..=high).contains(n))
                            .ok_or_else(|| {
                                format!("quick: players must be {low} to {high}, not `{w}`")
                            })?,
                    );
                }
            }
            return Ok(Command::Quick {
                game,
                players,
                days,
            });
        }
        "turn" | "plan" => {
            if rest.is_empty() {
                return Err("turn: which moves? (turn B2L C2R)".to_string());
            }
            let moves = rest.iter().map(|w| w.trim_matches(',').to_string());
            return Ok(Command::Turn(moves.filter(|w| !w.is_empty()).collect()));
        }
        "send" if rest.is_empty() => return Ok(Command::SendPlan),
        "drop" if rest.is_empty() => return Ok(Command::DropPlan),
        "create" | "new" => {
            let (system, game) = room_game(&arg(0, "game or puzzle (create orion players=3)")?)?;
            let mut private = false;
            let mut options = Map::new();
            for w in &rest[1..] {
                if w.eq_ignore_ascii_case("private") {
                    private = true;
                } else if let Some((k, v)) = w.split_once('=') {
                    options.insert(k.to_string(), option_value(system, k, v)?);
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
        "mine" => return Ok(Command::Mine),
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
        "bot" => {
            return match rest.as_slice() {
                [] => Ok(Command::Bot(4)),
                [level] => level
                    .parse::<u8>()
                    .ok()
                    .filter(|l| (1..=8).contains(l))
                    .map(Command::Bot)
                    .ok_or_else(|| format!("bot: the level is 1 to 8, not `{level}`")),
                _ => Err("bot: write `bot LEVEL` (1 to 8)".into()),
            }
        }
        _ => {}
    }
    Err(format!("`{line}` is not a command; type help"))
}

/// The lobby's lines of the help, after the default system's.
const LOBBY_HELP: &[&str] = &[
    "account: register PASSWORD claims your name · login NAME PASSWORD on another device",
    "your games: mine (live and by correspondence, your turn first)",
];

/// The help's last lines, after every system's.
const LAST_HELP: &[&str] = &[
    "archive: games [NAME] [game=GAME] [before=ROOM] · export ROOM (saves ROOM.txt; orion replay ROOM.txt)",
    "after the end: rematch (offer or accept) · rematch no",
    "computer players: bot LEVEL seats one (1 random … 8 strongest) in the waiting room on screen",
];

/// The help text, one command a line: the game systems' and the lobby's.
pub fn help() -> Vec<&'static str> {
    systems::help(LOBBY_HELP, LAST_HELP)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bot_seats_a_computer_player_of_a_level() {
        assert_eq!(parse("bot 7"), Ok(Some(Command::Bot(7))));
        assert_eq!(parse("bot"), Ok(Some(Command::Bot(4))));
        assert!(parse("bot 9").unwrap_err().contains("1 to 8"));
    }

    #[test]
    fn account_and_leaderboard_commands() {
        assert_eq!(
            parse("top Hydra-2"),
            Ok(Some(Command::Top {
                game: "hydra-2".into(),
                after: None
            }))
        );
        assert_eq!(
            parse("top aquila 50"),
            Ok(Some(Command::Top {
                game: "aquila".into(),
                after: Some(50)
            }))
        );
        assert!(parse("top nogame").is_err());
        assert!(parse("top orion x").unwrap_err().contains("not a place"));
        assert_eq!(
            parse("register s3cret-pass"),
            Ok(Some(Command::Register("s3cret-pass".into())))
        );
        assert!(parse("register").is_err());
        assert_eq!(parse("logout all"), Ok(Some(Command::LogoutAll)));
        assert!(parse("logout").is_err());
        assert_eq!(
            parse("login Ann s3cret-pass"),
            Ok(Some(Command::Login {
                name: "Ann".into(),
                password: "s3cret-pass".into()
            }))
        );
        assert!(parse("login Ann")
            .unwrap_err()
            .contains("login NAME PASSWORD"));
    }

    #[test]
    fn words_for_the_turn_and_the_lobby() {
        // The turn's words and clicks are moves, for the room's game system to read.
        for line in ["end", "pass", "!", "three", "C4R", "C2n"] {
            assert_eq!(parse(line), Ok(None), "{line}");
        }
        assert_eq!(
            parse("say good move"),
            Ok(Some(Command::Say("good move".into())))
        );
        assert_eq!(parse("'gg"), Ok(Some(Command::Say("gg".into()))));
        assert_eq!(
            parse("quick hydra 2"),
            Ok(Some(Command::Quick {
                game: "hydra-2".into(),
                players: Some(2),
                days: None,
            }))
        );
        assert_eq!(
            parse("quick hydra days=3"),
            Ok(Some(Command::Quick {
                game: "hydra-2".into(),
                players: None,
                days: Some(3),
            }))
        );
        assert_eq!(
            parse("turn B2L, C2R"),
            Ok(Some(Command::Turn(vec!["B2L".into(), "C2R".into()])))
        );
        assert_eq!(parse("send"), Ok(Some(Command::SendPlan)));
        assert_eq!(
            parse("create orion private players=3 claim_window=auto"),
            Ok(Some(Command::Create {
                game: "orion".into(),
                options: Some(RoomOptions {
                    players: Some(Some(3)),
                    claim_window: Some(orion_protocol::ClaimWindow::Auto),
                    ..RoomOptions::default()
                }),
                private: true
            }))
        );
        assert_eq!(
            parse("join r7 n"),
            Ok(Some(Command::Join {
                room: "r7".into(),
                seat: Some(WireSeat::N)
            }))
        );
    }

    #[test]
    fn errors_say_what_was_wrong() {
        assert!(parse("quick chess")
            .unwrap_err()
            .contains("unknown game `chess`"));
        assert!(parse("quick hydra-4 9").unwrap_err().contains("2 to 4"));
        assert!(parse("   ").is_err());
    }
}
