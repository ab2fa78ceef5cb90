//! ORION as a game system: its twelve games and twelve puzzles (the `orion-engine` crate)
//! behind the core's seam. The only file of the server that names the engine: it turns game
//! requests into actions, stored as the booklet writes them (the engine's `Action` notation,
//! as game records do), options into the engine's, and engine events into their wire form
//! (the crate's `Event`, serialized once per event).

use super::orion_line::Line;
use crate::protocol::{Code, Refusal};
use crate::system::{
    Applied, BotJob, BotMove, Demo, GameInfo, GameSystem, HintJob, Hints, OptionField, OptionKind,
    PuzzleFigures, Seat, SeatInfo, Table, UNDO,
};
use orion_ai::systems::orion::{position_key, think_with};
use orion_ai::History;
use orion_engine::puzzles::{self, Deal};
use orion_engine::{
    games, parse_click, parse_piece, parse_slot, position_string, Action, ClaimWindow, Event, Game,
    Millis, Options, Rules, Seat as EngineSeat, Winner,
};
use orion_engine::{MAX_CLICKS, MAX_DIE_FACES};
use orion_protocol::engine::{
    colour_letter, event as wire_event, result, result_of, scores, wire_seat,
};
use orion_protocol::{
    Claim, ClaimWindow as WireWindow, Event as WireEvent, GameResult, Request, RoomOptions, Scores,
    Snapshot, Turn,
};
use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

/// Longest claim window an option may set, in ms (the engine refuses more).
const MAX_CLAIM_WINDOW: u64 = 600_000;

/// The engine's options from a room's game options: what is left out is the game's
/// default. ORION takes the crate's typed options only; any other is refused by name.
fn engine_options(options: &RoomOptions) -> Result<Options, Refusal> {
    if let Some(key) = options.extra.keys().next() {
        let shown: String = key.chars().take(40).collect();
        return Err(Refusal::new(
            Code::BadRequest,
            format!(
                "options: unknown field `{shown}`, expected one of `clicks`, `die`, \
                 `claim_window`, `players`, `turn_clock`, `time_bank`, `seat_hold`, `rated`"
            ),
        ));
    }
    let default = Options::default();
    Ok(Options {
        clicks: options.clicks.unwrap_or(default.clicks),
        die: options.die.clone().unwrap_or(default.die),
        claim_window: match options.claim_window {
            None => default.claim_window,
            Some(WireWindow::Auto) => ClaimWindow::Auto,
            Some(WireWindow::Millis(ms)) => ClaimWindow::Millis(ms),
        },
        players: options.players.unwrap_or(default.players),
    })
}

/// A room's game options written out in full, as stored and shown.
fn wire_options(options: Options) -> RoomOptions {
    RoomOptions {
        clicks: Some(options.clicks),
        die: Some(options.die),
        claim_window: Some(match options.claim_window {
            ClaimWindow::Auto => WireWindow::Auto,
            ClaimWindow::Millis(ms) => WireWindow::Millis(ms),
        }),
        players: Some(options.players),
        ..RoomOptions::default()
    }
}

/// ORION's games and puzzles.
pub struct Orion {
    /// Every game and puzzle, as the core sees them.
    games: Vec<GameInfo>,
}

impl Orion {
    /// The system with every game and puzzle of the engine.
    pub fn new() -> Orion {
        let info = |rules: &&'static dyn Rules, solo: bool| GameInfo {
            id: rules.id(),
            name: rules.name(),
            players: rules.players(),
            default_players: rules.default_players(),
            solo,
        };
        let games = (games::ALL.iter().map(|r| info(r, false)))
            .chain(games::PUZZLES.iter().map(|r| info(r, true)))
            .collect();
        Orion { games }
    }

    fn rules(game: &GameInfo) -> Result<&'static dyn Rules, Refusal> {
        games::find_any(game.id)
            .ok_or_else(|| Refusal::new(Code::NotFound, format!("no game {}", game.id)))
    }
}

impl Default for Orion {
    fn default() -> Self {
        Orion::new()
    }
}

impl GameSystem for Orion {
    fn id(&self) -> &'static str {
        "orion"
    }

    fn games(&self) -> &[GameInfo] {
        &self.games
    }

    fn option_fields(&self) -> Vec<OptionField> {
        let max = u64::from(MAX_CLICKS);
        vec![
            OptionField {
                name: "clicks",
                label: "clicks",
                help: "how many clicks (quarter turns) a player makes each turn",
                kind: OptionKind::Number { min: 1, max },
                implies: None,
            },
            OptionField {
                name: "die",
                label: "die faces",
                help: "roll a die for each turn's clicks: its faces, e.g. 1,2,2,3,4,5",
                kind: OptionKind::Numbers {
                    min: 1,
                    max,
                    len: MAX_DIE_FACES,
                },
                implies: None,
            },
            OptionField {
                name: "claim_window",
                label: "claim window",
                help: "seconds a player has to claim a chain another's click made for him (auto: as the game says)",
                kind: OptionKind::Millis {
                    min: 0,
                    max: MAX_CLAIM_WINDOW,
                    auto: true,
                },
                implies: None,
            },
        ]
    }

    fn find(&self, game: &str) -> Option<&GameInfo> {
        let rules = games::find_any(game)?;
        self.games.iter().find(|g| g.id == rules.id())
    }

    fn options(&self, game: &GameInfo, options: RoomOptions) -> Result<RoomOptions, Refusal> {
        let options = engine_options(&options)?;
        // Setting a game up checks every option against the game (players, clicks, die).
        Game::new(Orion::rules(game)?, options.clone(), 0)
            .map_err(|e| Refusal::new(Code::BadRequest, e.to_string()))?;
        Ok(wire_options(options))
    }

    fn table(
        &self,
        game: &GameInfo,
        options: &RoomOptions,
        seed: u64,
    ) -> Result<Box<dyn Table>, Refusal> {
        let game = Game::new(Orion::rules(game)?, engine_options(options)?, seed)
            .map_err(|e| Refusal::new(Code::BadRequest, e.to_string()))?;
        let seats = game
            .seats()
            .iter()
            .map(|s| SeatInfo {
                seat: seat_of(s.seat),
                colour: colour_letter(s.colour),
            })
            .collect();
        let line = Line::of(&game);
        let mut history = History::new();
        history.extend(position_key(&game));
        Ok(Box::new(OrionTable {
            game,
            seats,
            line,
            history,
        }))
    }

    fn action(&self, request: &Request) -> Option<Result<String, Refusal>> {
        Some(request_action(request)?.map(|a| a.to_string()))
    }

    fn puzzle_figures(&self, game: &GameInfo) -> Option<PuzzleFigures> {
        // Aquarius is not among the click puzzles: it counts hits.
        let puzzle = puzzles::find(game.id).filter(|_| game.solo)?;
        Some(PuzzleFigures {
            target: puzzle.target,
            optimum: match puzzle.deal {
                Deal::Fixed => puzzles::optimum(puzzle.name),
                Deal::Scramble(_) => None,
            },
        })
    }

    fn puzzle_goal(&self, game: &GameInfo) -> Option<&'static str> {
        game.solo.then(|| puzzle_goal(game.id))
    }

    fn demo(&self) -> Option<Demo> {
        // The first puzzle of the booklet whose printed line, replayed from its fixed start,
        // reaches its finish (Aquila's has a misprint: it lets go of the fish).
        puzzles::all().into_iter().find_map(|p| {
            let line = orion_engine::parse_moves(p.booklet_solution?).ok()?;
            let end = p.replay(&line).ok()?;
            (matches!(p.deal, Deal::Fixed) && p.solved(&end)).then(|| Demo {
                game: p.name,
                start: orion_engine::position_string(&p.start),
                clicks: line.iter().map(ToString::to_string).collect(),
            })
        })
    }

    fn has_bots(&self) -> bool {
        true
    }

    fn notation(&self, action: &str) -> String {
        read_action(action).map_or_else(|| action.to_string(), |a| a.to_string())
    }
}

/// A puzzle's goal as the booklet sets it, in a sentence or two.
fn puzzle_goal(id: &str) -> &'static str {
    match id {
        "aquila" => "Carry the blue fish home with the two red eagles: after every click both must still touch it.",
        "aurora-a" => "Turn the vertical colour lines into horizontal ones, and the horizontal into vertical.",
        "aurora-b" => "Turn the stripes running from upper right to lower left so they run from upper left to lower right.",
        "whirlpool" => "Bring the pieces from the start into the spiral arms of the Whirlpool Galaxy.",
        "herdsman" => "Herd the four yellow sheep to the pen with the two red dogs: sheep move only with a dog in their orbit.",
        "binary-1" | "binary-2" | "binary-3" | "binary-4" => "Move the red star from right to left through the yellow ones on the bottom two rows, and leave the yellow pattern as it was.",
        "orbit-a" => "Put pieces 5, 6 and 7 back in order, turning only the two orbits' rotors.",
        "orbit-b" => "Sort twelve shuffled pieces back into order, turning only the four orbits' rotors.",
        "aquarius" => "Guess which rotor the hidden chain runs through, five times: three hits or more suggests telepathy.",
        _ => "Reach the finish in as few clicks as you can.",
    }
}

/// The engine action a game request asks for (the server's one mapping of requests to
/// ORION's actions); `None` for a request that is not one of ORION's game actions.
fn request_action(request: &Request) -> Option<Result<Action, Refusal>> {
    /// A request's field as the engine reads it, or why it cannot be.
    fn field<T>(what: &str, parsed: Result<T, impl fmt::Display>) -> Result<T, Refusal> {
        parsed.map_err(|e| Refusal::new(Code::BadRequest, format!("{what}: {e}")))
    }
    let action = || -> Result<Option<Action>, Refusal> {
        Ok(Some(match request {
            Request::Click { click, piece, .. } => Action::Click {
                click: field("click", parse_click(click))?,
                piece: (piece.as_deref())
                    .map(|p| field("piece", parse_piece(p)))
                    .transpose()?,
            },
            Request::Place { slot, from, .. } => Action::Place {
                slot: field("slot", parse_slot(slot))?,
                from: (from.as_deref())
                    .map(|f| field("from", parse_slot(f)))
                    .transpose()?,
            },
            Request::EndTurn { .. } => Action::EndTurn,
            Request::Roll { .. } => Action::Roll,
            Request::Three { .. } => Action::Three,
            Request::Claim { .. } => Action::Claim,
            Request::Secret { piece, .. } => Action::Secret {
                piece: field("piece", parse_piece(piece))?,
            },
            Request::Challenge { piece, .. } => Action::Challenge {
                piece: field("piece", parse_piece(piece))?,
            },
            _ => return Ok(None),
        }))
    };
    action().transpose()
}

/// One ORION game in play.
struct OrionTable {
    /// The engine's game (1.7 KB: the table is boxed by the room, and so is the copy the
    /// room keeps across each wait for the store).
    game: Game,
    /// Its seats as the core names them; shared, as they never change.
    seats: Arc<[SeatInfo]>,
    /// A click puzzle's start and the clicks that stand, to take one back (`undo`);
    /// `None` in a game.
    line: Option<Box<Line>>,
    /// The positions the game's turns started from (the latest `orion_ai::RECENT`), for the
    /// computer players: a level that sees only the board repeats a cycle of turns with
    /// another player to the end of the game (BENCHMARKS.md, Libra's tug of war). Rebuilt
    /// with the game when a room is restored, as every action is applied again.
    history: History,
}

/// The core's name of an engine seat.
fn seat_of(seat: EngineSeat) -> Seat {
    Seat(match seat {
        EngineSeat::S => "S",
        EngineSeat::W => "W",
        EngineSeat::N => "N",
        EngineSeat::E => "E",
    })
}

/// The engine seat of a core seat.
fn engine_seat(seat: Seat) -> Result<EngineSeat, Refusal> {
    EngineSeat::parse(seat.0)
        .ok_or_else(|| Refusal::new(Code::BadRequest, format!("no seat {seat}")))
}

/// The protocol code of an engine refusal (`ActionError::code`).
fn refusal_code(code: &str) -> Code {
    match code {
        "not_your_turn" => Code::NotYourTurn,
        "not_a_player" => Code::NotAPlayer,
        _ => Code::Illegal,
    }
}

impl Table for OrionTable {
    fn seats(&self) -> &[SeatInfo] {
        &self.seats
    }

    fn mover(&self) -> Seat {
        seat_of(self.game.mover())
    }

    fn round(&self) -> u32 {
        self.game.round()
    }

    fn seed(&self) -> u64 {
        self.game.seed()
    }

    fn apply(&mut self, seat: Seat, action: &str, now: Millis) -> Result<Applied, Refusal> {
        if action == UNDO {
            return self.undo(seat);
        }
        let action = read_action(action)
            .ok_or_else(|| Refusal::new(Code::BadRequest, format!("no such action: {action}")))?;
        let events = self
            .game
            .step(engine_seat(seat)?, action, now)
            .map_err(|e| Refusal::new(refusal_code(e.code()), e.to_string()))?;
        if let Some(line) = &mut self.line {
            line.push(engine_seat(seat)?, action, now);
        }
        self.history.extend(position_key(&self.game));
        let mut applied = Applied {
            events: Vec::with_capacity(events.len()),
            over: None,
            hidden: matches!(action, Action::Secret { .. }),
        };
        for event in &events {
            match event {
                Event::Over { outcome } => applied.over = Some(result(outcome)),
                e => applied.events.push(engine_event(e)),
            }
        }
        Ok(applied)
    }

    fn timeout_action(&self) -> &'static str {
        "timeout"
    }

    fn position(&self) -> String {
        position_string(self.game.position())
    }

    fn turn(&self) -> Turn {
        let (clicks, used) = self.game.clicks();
        let mut turn = Turn {
            seat: wire_seat(self.game.mover()),
            clicks,
            used: used.into(),
            round: self.game.round(),
            systems: Default::default(),
        };
        // A puzzle: `used` is the clicks made so far (the whole puzzle is one move with no
        // clicks limit, so `clicks` stays null) and `target` the booklet's count (Aquarius:
        // tries made, of five).
        if let Some(progress) = self.game.progress() {
            turn.used = progress.clicks;
            turn.systems.orion.target = Some(progress.target);
        }
        turn
    }

    fn scores(&self) -> Scores {
        scores(&self.game.scores())
    }

    fn view(&self, viewer: Option<Seat>, snapshot: &mut Snapshot) {
        snapshot.claims = self
            .game
            .open_claims()
            .into_iter()
            .map(|(c, until)| Claim {
                colour: c.letter().to_string(),
                until,
            })
            .collect();
        snapshot.systems.orion.secret = viewer
            .and_then(|s| EngineSeat::parse(s.0))
            .and_then(|s| self.game.secret(s))
            .map(|piece| piece.to_string());
    }

    fn result(&self) -> Option<GameResult> {
        self.game.outcome().map(result)
    }

    fn forfeit(&self, loser: Seat) -> GameResult {
        let loser = EngineSeat::parse(loser.0).and_then(|s| self.game.colour_of(s));
        let others: Vec<_> = self
            .game
            .seats()
            .iter()
            .filter(|s| Some(s.colour) != loser)
            .copied()
            .collect();
        let winner = match others.as_slice() {
            [one] => Some(Winner::Seat(one.seat)),
            [a, b] if a.colour == b.colour => Some(Winner::Team(a.seat, b.seat)),
            _ => None,
        };
        result_of(winner, &self.game.scores())
    }

    fn abandoned(&self) -> GameResult {
        result_of(None, &self.game.scores())
    }

    fn winning_chain(&self) -> Option<orion_protocol::WinningChain> {
        let winner = self.game.outcome()?.winner?;
        let seats = match winner {
            Winner::Seat(s) => vec![s],
            Winner::Team(a, b) => vec![a, b],
        };
        let word = |edge: orion_engine::Edge| match edge {
            orion_engine::Edge::Bottom => "south",
            orion_engine::Edge::Left => "west",
            orion_engine::Edge::Top => "north",
            orion_engine::Edge::Right => "east",
        };
        (self.game.seats().iter())
            .filter(|info| seats.contains(&info.seat))
            .find_map(|info| {
                let edge = info.seat.edge();
                let pieces = self.game.position().of(info.colour);
                let chain = orion_engine::chain_pieces(pieces, edge);
                (!chain.is_empty()).then(|| orion_protocol::WinningChain {
                    slots: chain.into_iter().map(|s| s.to_string()).collect(),
                    from: word(edge).to_string(),
                    to: word(edge.opposite()).to_string(),
                })
            })
    }

    fn hidden_choice(&self, event: &WireEvent<'_>) -> Option<Seat> {
        // Algol's secret man: the `secret` event carries the commitment, never the man.
        match event {
            WireEvent::Secret { seat, .. } => EngineSeat::parse(seat.as_str()).map(seat_of),
            _ => None,
        }
    }

    fn bot_job(&self, seat: Seat, now: Millis) -> Option<BotJob> {
        let seat = EngineSeat::parse(seat.0)?;
        let mut legal = Vec::new();
        self.game.legal_actions_into(seat, now, &mut legal);
        if legal.is_empty() || self.game.is_puzzle() {
            return None;
        }
        // The copy the seat may see: no other seat's secret man is in it.
        let seen = self.game.seen_by(seat);
        let history = self.history.clone();
        Some(Box::new(move |level, seed| {
            let player = orion_ai::Player::Level(level);
            let action = think_with(&seen, seat, now, &history, player, level.timed(), seed)?;
            let reaction = match (action, seen.options().claim_window) {
                (Action::Claim, ClaimWindow::Millis(window)) => {
                    crate::bots::CLAIM_REACTION.min(window / 2)
                }
                _ => 0,
            };
            Some(BotMove {
                action: action.to_string(),
                reaction,
            })
        }))
    }

    fn clone_table(&self) -> Box<dyn Table> {
        Box::new(OrionTable {
            game: self.game.clone(),
            seats: self.seats.clone(),
            line: self.line.clone(),
            history: self.history.clone(),
        })
    }

    fn hint_job(&self) -> Option<HintJob> {
        self.line.as_ref()?;
        Line::hint_job(&self.game)
    }

    /// The viewer's legal places (`place`; `from`: the pieces a building move may take
    /// instead), the rotors it may turn (`turn`), and Algol's pieces it may choose as its
    /// secret man (`secret`) or challenge (`challenge`), from the engine's legal actions.
    fn hints(&self, viewer: Option<Seat>, now: Millis) -> Hints {
        let mut hints = Hints::new();
        let Some(seat) = viewer.and_then(|s| EngineSeat::parse(s.0)) else {
            return hints;
        };
        let mut add = |key: &'static str, text: String| {
            let list = hints.entry(key).or_default();
            if !list.contains(&text) {
                list.push(text);
            }
        };
        for action in self.game.legal_actions(seat, now) {
            match action {
                Action::Place { slot, from } => {
                    add("place", slot.to_string());
                    if let Some(from) = from {
                        add("from", from.to_string());
                    }
                }
                Action::Click { click, .. } => add("turn", click.rotor.to_string()),
                Action::Secret { piece } => add("secret", piece.to_string()),
                Action::Challenge { piece } => add("challenge", piece.to_string()),
                _ => {}
            }
        }
        hints
    }
}

impl OrionTable {
    /// Takes the puzzle's last click back (`undo`): the game replayed without it, and an
    /// `undo` event with the position and the clicks that stand.
    fn undo(&mut self, seat: Seat) -> Result<Applied, Refusal> {
        let Some(line) = &mut self.line else {
            return Err(Refusal::new(
                Code::Illegal,
                "the telepathy test has no undo: each try stands",
            ));
        };
        let (game, taken) = line.undo(engine_seat(seat)?, &self.game)?;
        self.game = game;
        let Action::Click { click, .. } = taken else {
            return Err(Refusal::new(Code::Server, "only clicks are kept to undo"));
        };
        let used = self.game.progress().map_or(0, |p| p.clicks);
        let event = WireEvent::Undo {
            seat: wire_seat(engine_seat(seat)?),
            click: Cow::Owned(click.to_string()),
            position: Cow::Owned(position_string(self.game.position())),
            used,
        };
        Ok(Applied {
            events: vec![event.to_json()],
            over: None,
            hidden: false,
        })
    }
}

/// The `ev` object of an engine event, serialized once and then shared by every member.
fn engine_event(event: &Event) -> String {
    wire_event(event).to_json()
}

/// A stored action: in booklet notation (`C4R R7`, `place C1s from A1e`, `end` …), or in the
/// form earlier builds stored (`click C4R R7`, `place C1s A1e`), which stores written before
/// still hold. The two never read alike: a click starts with its rotor, never with `click`,
/// and the booklet's `place` takes `from` before a second slot.
fn read_action(text: &str) -> Option<Action> {
    Action::parse(text)
        .ok()
        .or_else(|| read_earlier_action(text))
}

/// An action in the form earlier builds stored: `click C4R R7`, `place C1s A1e`, `end`,
/// `roll`, `three`, `claim`, `timeout`, `secret R3`, `challenge B4`.
fn read_earlier_action(text: &str) -> Option<Action> {
    let mut words = text.split_whitespace();
    let action = match words.next()? {
        "click" => Action::Click {
            click: parse_click(words.next()?).ok()?,
            piece: match words.next() {
                Some(p) => Some(parse_piece(p).ok()?),
                None => None,
            },
        },
        "place" => Action::Place {
            slot: parse_slot(words.next()?).ok()?,
            from: match words.next() {
                Some(s) => Some(parse_slot(s).ok()?),
                None => None,
            },
        },
        "end" => Action::EndTurn,
        "roll" => Action::Roll,
        "three" => Action::Three,
        "claim" => Action::Claim,
        "timeout" => Action::Timeout,
        "secret" => Action::Secret {
            piece: parse_piece(words.next()?).ok()?,
        },
        "challenge" => Action::Challenge {
            piece: parse_piece(words.next()?).ok()?,
        },
        _ => return None,
    };
    Some(action)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    #[test]
    fn engine_events_keep_their_wire_fields() {
        use orion_engine::{games, Action, Game, Options};
        let mut game = Game::new(games::find("hydra-2").unwrap(), Options::default(), 1).unwrap();
        let mover = game.mover();
        let click = orion_engine::Click::ALL
            .into_iter()
            .find(|&c| game.check_click(mover, c).is_ok())
            .unwrap();
        let events = game
            .step(mover, Action::Click { click, piece: None }, 0)
            .unwrap();
        let texts: Vec<Value> = events
            .iter()
            .map(|e| serde_json::from_str(&engine_event(e)).unwrap())
            .collect();
        let Event::Click { position, .. } = &events[0] else {
            panic!("first event {:?}", events[0]);
        };
        assert_eq!(
            texts[0],
            json!({"kind": "click", "seat": mover.to_string(), "click": click.to_string(),
                   "position": position_string(position)})
        );
        assert!(texts[0]["position"].as_str().unwrap().contains(':'));
        let captured = Event::Capture {
            seat: mover,
            slots: [
                orion_engine::parse_slot("C2n").unwrap(),
                orion_engine::parse_slot("A1w").unwrap(),
            ]
            .into_iter()
            .collect(),
            points: 4,
            position: *position,
        };
        let v: Value = serde_json::from_str(&engine_event(&captured)).unwrap();
        assert_eq!(v["kind"], "capture");
        assert_eq!(v["slots"], json!(["C2n", "A1w"]));
        assert_eq!(v["points"], 4);
        let turn = Event::Turn {
            seat: mover,
            clicks: None,
            round: 3,
        };
        assert_eq!(
            serde_json::from_str::<Value>(&engine_event(&turn)).unwrap(),
            json!({"kind": "turn", "seat": mover.to_string(), "clicks": null, "round": 3})
        );
    }

    #[test]
    fn actions_are_stored_in_booklet_notation_and_earlier_stores_read_alike() {
        let orion = Orion::new();
        let room = || "r".to_string();
        let stored = |request: Request| orion.action(&request).unwrap().unwrap();
        let click = Request::Click {
            room: room(),
            click: "C4L".into(),
            piece: Some("R7".into()),
        };
        let place = Request::Place {
            room: room(),
            slot: "C1s".into(),
            from: Some("A1e".into()),
        };
        assert_eq!(stored(click), "C4L R7");
        assert_eq!(stored(place), "place C1s from A1e");
        assert_eq!(stored(Request::EndTurn { room: room() }), "end");
        // What earlier builds stored reads as the same action, and is written in the
        // booklet's notation in a game record.
        for (earlier, booklet) in [
            ("click C4R", "C4R"),
            ("click C4L R7", "C4L R7"),
            ("place C1s", "place C1s"),
            ("place C1s A1e", "place C1s from A1e"),
            ("end", "end"),
            ("roll", "roll"),
            ("three", "three"),
            ("claim", "claim"),
            ("timeout", "timeout"),
            ("secret R3", "secret R3"),
            ("challenge B4", "challenge B4"),
        ] {
            assert_eq!(
                read_action(earlier),
                Action::parse(booklet).ok(),
                "{earlier}"
            );
            assert_eq!(orion.notation(earlier), booklet);
            assert_eq!(orion.notation(booklet), booklet);
        }
        assert_eq!(read_action("dance"), None);
        assert_eq!(read_action("click"), None);
    }
}
