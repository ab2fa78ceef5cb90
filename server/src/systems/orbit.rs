//! Orbit as a game system (ORBIT.md, the `orion-orbit` crate) behind the core's seam: one
//! game, `orbit`, for seats `S` and `N`. A `move` request's text (`h8`, `pass`, `black`) is
//! the action; every move is one `move` event with the position after it and the captured
//! cells, followed by the next `turn` (whose drop, the opening phase, the cells prohibited
//! for the colour to drop).

use super::{from_map, move_text, option_map, turn_event};
use crate::clock::Millis;
use crate::protocol::{Code, Refusal};
use crate::system::{
    decided_job, Applied, BotJob, GameInfo, GameSystem, Hints, Seat, SeatInfo, Table,
};
use orion_ai::systems::orbit::OrbitState;
use orion_ai::Observe;
use orion_orbit::{
    position_string, CellSet, End, Game, Move, Outcome, Seat as OrbitSeat, Stone, Turn,
};
use orion_protocol::{
    Event, GameResult, OrbitMove, OrbitResult, OrbitTurn, Request, RoomOptions, Scores,
    Seat as WireSeat, Snapshot, Turn as WireTurn, TurnParts, Winner,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// The game's id on the wire.
const ID: &str = "orbit";

/// The action a turn clock running out takes: a pass in play; in the opening (`S`'s drops,
/// `N`'s choice), where there is no pass, the seat loses on time.
const TIMEOUT: &str = "timeout";

/// The options an Orbit room takes: none of the game's own yet, only the player count every
/// room carries (always 2).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct OrbitOptions {
    /// Players: Orbit is for two.
    players: u8,
}

impl Default for OrbitOptions {
    fn default() -> Self {
        OrbitOptions { players: 2 }
    }
}

/// Orbit's one game.
pub struct Orbit {
    /// `orbit`, as the core sees it.
    games: Vec<GameInfo>,
}

impl Orbit {
    /// The system with its one game.
    pub fn new() -> Orbit {
        Orbit {
            games: vec![GameInfo {
                id: ID,
                name: "Orbit",
                players: 2..=2,
                default_players: 2,
                solo: false,
            }],
        }
    }
}

impl Default for Orbit {
    fn default() -> Self {
        Orbit::new()
    }
}

impl GameSystem for Orbit {
    fn id(&self) -> &'static str {
        ID
    }

    fn games(&self) -> &[GameInfo] {
        &self.games
    }

    fn options(&self, _game: &GameInfo, options: RoomOptions) -> Result<RoomOptions, Refusal> {
        let bad = |e: String| Refusal::new(Code::BadRequest, format!("options: {e}"));
        let parsed: OrbitOptions = serde_json::from_value(Value::Object(option_map(&options)))
            .map_err(|e| bad(e.to_string()))?;
        if parsed.players != 2 {
            return Err(bad(format!(
                "Orbit is for 2 players, not {}",
                parsed.players
            )));
        }
        from_map(serde_json::to_value(&parsed).map_err(|e| bad(e.to_string()))?)
    }

    fn table(
        &self,
        _game: &GameInfo,
        _options: &RoomOptions,
        seed: u64,
    ) -> Result<Box<dyn Table>, Refusal> {
        Ok(Box::new(OrbitTable {
            game: Game::new(),
            seats: seats(None),
            moves: 0,
            seed,
            lost_on_time: None,
        }))
    }

    fn has_bots(&self) -> bool {
        true
    }

    fn action(&self, request: &Request) -> Option<Result<String, Refusal>> {
        let Request::Move { mv: text, .. } = request else {
            return None;
        };
        Some(move_text(text).and_then(|text| {
            text.parse::<Move>()
                .map(|mv| mv.to_string())
                .map_err(|e| Refusal::new(Code::BadRequest, e.to_string()))
        }))
    }
}

/// One game of Orbit in play.
struct OrbitTable {
    /// The engine's game.
    game: Game,
    /// The seats, with their colours once `N` has chosen (empty before).
    seats: Vec<SeatInfo>,
    /// Moves made (drops, passes, the choice), so that every move starts a new turn for the
    /// turn clock, even `S`'s three opening drops in a row.
    moves: u32,
    /// The seed the room gave (Orbit has no chance; kept for the seed commitment).
    seed: u64,
    /// The seat that let its clock run out in the opening, and so lost.
    lost_on_time: Option<OrbitSeat>,
}

/// The core's name of an Orbit seat.
fn seat_of(seat: OrbitSeat) -> Seat {
    Seat(match seat {
        OrbitSeat::S => "S",
        OrbitSeat::N => "N",
    })
}

/// The Orbit seat of a core seat.
fn orbit_seat(seat: Seat) -> Result<OrbitSeat, Refusal> {
    match seat.0 {
        "S" => Ok(OrbitSeat::S),
        "N" => Ok(OrbitSeat::N),
        other => Err(Refusal::new(
            Code::NotAPlayer,
            format!("seat {other} does not play Orbit"),
        )),
    }
}

/// A colour's letter as on the wire: `B` or `W`.
fn letter(stone: Stone) -> &'static str {
    match stone {
        Stone::Black => "B",
        Stone::White => "W",
    }
}

/// The seats with their colours: none before `N` has chosen.
fn seats(holders: Option<(Stone, Stone)>) -> Vec<SeatInfo> {
    let (s, n) = match holders {
        Some((s, n)) => (letter(s), letter(n)),
        None => ("", ""),
    };
    vec![
        SeatInfo {
            seat: Seat("S"),
            colour: s,
        },
        SeatInfo {
            seat: Seat("N"),
            colour: n,
        },
    ]
}

/// Cell names in reading order.
fn cells(set: CellSet) -> Vec<String> {
    set.iter().map(|c| c.to_string()).collect()
}

/// The wire's seat for an Orbit seat.
fn wire_seat(seat: OrbitSeat) -> WireSeat {
    match seat {
        OrbitSeat::S => WireSeat::S,
        OrbitSeat::N => WireSeat::N,
    }
}

/// Something by colour letter (`{"B": …, "W": …}`).
fn by_letter<T>(black: T, white: T) -> BTreeMap<String, T> {
    [("B".to_string(), black), ("W".to_string(), white)].into()
}

impl OrbitTable {
    /// The colour to drop now, if a drop is due.
    fn colour_to_drop(&self) -> Option<Stone> {
        match self.game.turn() {
            Turn::Opening { colour, .. } | Turn::Play(colour) => Some(colour),
            Turn::Choice | Turn::Over => None,
        }
    }

    /// Empty cells `colour` may not drop on.
    fn prohibited(&self, colour: Stone) -> Vec<String> {
        cells(self.game.prohibited(colour) & self.game.board().vacant())
    }

    /// Territory by seat (both 0 until the colours are chosen).
    fn scores_of(&self, territory: orion_orbit::ByStone<u32>) -> Scores {
        OrbitSeat::ALL
            .into_iter()
            .map(|seat| {
                let points = Stone::ALL
                    .into_iter()
                    .find(|&c| self.game.holder(c) == Some(seat))
                    .map_or(0, |c| territory[c]);
                (wire_seat(seat), points)
            })
            .collect()
    }

    /// The `result` of a game over by the rules.
    fn result_of(&self, outcome: &Outcome) -> GameResult {
        let winner = outcome.winner.and_then(|c| self.game.holder(c));
        let end = match outcome.end {
            End::Passes => "passes",
            End::DropLimit => "drop_limit",
        };
        self.result_with(winner, outcome.territory, end)
    }

    /// The `result` of a game the server ends: `winner` (or none) with the territory as it
    /// stands.
    fn decided(&self, winner: Option<OrbitSeat>, end: &str) -> GameResult {
        self.result_with(winner, self.game.territory(), end)
    }

    fn result_with(
        &self,
        winner: Option<OrbitSeat>,
        territory: orion_orbit::ByStone<u32>,
        end: &str,
    ) -> GameResult {
        GameResult {
            winner: winner.map(|s| Winner::seat(wire_seat(s))),
            scores: self.scores_of(territory),
            orion: Default::default(),
            end: Some(end.to_string()),
            orbit: OrbitResult {
                territory: Some(by_letter(territory.black, territory.white)),
            },
        }
    }

    fn is_over(&self) -> bool {
        self.game.outcome().is_some() || self.lost_on_time.is_some()
    }
}

impl Table for OrbitTable {
    fn seats(&self) -> &[SeatInfo] {
        &self.seats
    }

    fn mover(&self) -> Seat {
        seat_of(self.game.seat_to_move().unwrap_or(OrbitSeat::S))
    }

    fn round(&self) -> u32 {
        self.moves + 1
    }

    fn seed(&self) -> u64 {
        self.seed
    }

    fn apply(&mut self, seat: Seat, action: &str, _now: Millis) -> Result<Applied, Refusal> {
        if self.is_over() {
            return Err(Refusal::new(Code::Illegal, "the game is over"));
        }
        let seat = orbit_seat(seat)?;
        let mover = self.game.seat_to_move();
        if mover != Some(seat) {
            let whose = mover.map_or("nobody's".to_string(), |m| format!("{m}'s"));
            return Err(Refusal::new(
                Code::NotYourTurn,
                format!("it is {whose} turn, not {seat}'s"),
            ));
        }
        let timeout = action == TIMEOUT;
        let mv = match (timeout, self.game.turn()) {
            (true, Turn::Play(_)) => Move::Pass,
            (true, _) => {
                // No pass in the opening: the seat whose clock ran out loses.
                self.lost_on_time = Some(seat);
                return Ok(Applied {
                    over: Some(self.decided(Some(seat.other()), "time")),
                    ..Applied::default()
                });
            }
            (false, _) => action
                .parse::<Move>()
                .map_err(|e| Refusal::new(Code::BadRequest, e.to_string()))?,
        };
        let effect = self
            .game
            .play(mv)
            .map_err(|e| Refusal::new(Code::Illegal, e.to_string()))?;
        self.moves += 1;
        if let Move::Choose(colour) = mv {
            self.seats = seats(Some((colour.other(), colour)));
        }
        let ev = Event::Move {
            seat: wire_seat(seat),
            mv: mv.to_string().into(),
            position: position_string(self.game.board()).into(),
            removed: effect
                .removed
                .iter()
                .map(|c| c.to_string().into())
                .collect(),
            orbit: OrbitMove {
                colour: Some(letter(effect.colour).into()),
            },
            orbs: Default::default(),
            timeout,
            forced: false,
        };
        let mut applied = Applied {
            events: vec![ev.to_json()],
            ..Applied::default()
        };
        match &effect.outcome {
            Some(outcome) => applied.over = Some(self.result_of(outcome)),
            None => applied.events.push(turn_event(self.turn()).to_json()),
        }
        Ok(applied)
    }

    fn timeout_action(&self) -> &'static str {
        TIMEOUT
    }

    fn position(&self) -> String {
        position_string(self.game.board())
    }

    fn turn(&self) -> WireTurn {
        // Every turn names a seat (PROTOCOL.md), so a finished game names the last mover's.
        let seat = self.mover().wire();
        let (phase, drop) = match self.game.turn() {
            Turn::Opening { drop, .. } => ("opening", Some(drop)),
            Turn::Choice => ("choice", None),
            Turn::Play(_) => ("play", None),
            Turn::Over => ("over", None),
        };
        let colour = self.colour_to_drop();
        // `clicks` and `used` are every turn's fields (PROTOCOL.md); a drop is no click.
        WireTurn {
            seat,
            clicks: None,
            used: 0,
            round: self.round(),
            systems: TurnParts {
                orion: Default::default(),
                orbit: OrbitTurn {
                    phase: Some(phase.to_string()),
                    colour: Some(colour.map(|c| letter(c).to_string())),
                    prohibited: Some(colour.map(|c| self.prohibited(c)).unwrap_or_default()),
                    drop: drop.map(u32::from),
                },
            },
        }
    }

    fn scores(&self) -> Scores {
        self.scores_of(self.game.territory())
    }

    fn view(&self, _viewer: Option<Seat>, snapshot: &mut Snapshot) {
        // Every snapshot lists the chains open to claims (PROTOCOL.md): Orbit has none.
        let territory = self.game.territory();
        snapshot.systems.orbit.prohibited = Some(by_letter(
            self.prohibited(Stone::Black),
            self.prohibited(Stone::White),
        ));
        snapshot.systems.orbit.territory = Some(by_letter(territory.black, territory.white));
    }

    fn result(&self) -> Option<GameResult> {
        if let Some(loser) = self.lost_on_time {
            return Some(self.decided(Some(loser.other()), "time"));
        }
        self.game.outcome().map(|o| self.result_of(&o))
    }

    fn forfeit(&self, seat: Seat) -> GameResult {
        let winner = orbit_seat(seat).ok().map(OrbitSeat::other);
        self.decided(winner, "time")
    }

    fn abandoned(&self) -> GameResult {
        self.decided(None, "abandoned")
    }

    fn hidden_choice(&self, _event: &Event<'_>) -> Option<Seat> {
        None
    }

    fn bot_job(&self, seat: Seat, _now: Millis) -> Option<BotJob> {
        let seat = orbit_seat(seat).ok()?;
        if self.is_over() || self.game.seat_to_move() != Some(seat) {
            return None;
        }
        // Nothing is hidden in Orbit: the seat's view is the game.
        let view = OrbitState::new(self.game.clone()).view(OrbitState::player_of_seat(seat));
        Some(decided_job(view))
    }

    fn clone_table(&self) -> Box<dyn Table> {
        Box::new(OrbitTable {
            game: self.game.clone(),
            seats: self.seats.clone(),
            moves: self.moves,
            seed: self.seed,
            lost_on_time: self.lost_on_time,
        })
    }

    /// Each colour's territory cells (`territory_B`, `territory_W`: empty cells prohibited
    /// for the other colour only), and the cells the viewer may drop on if it is to drop.
    fn hints(&self, viewer: Option<Seat>, _now: Millis) -> Hints {
        let vacant = self.game.board().vacant();
        let against = |c: Stone| self.game.prohibited(c);
        let mut hints = Hints::from([
            (
                "territory_B",
                cells((vacant & against(Stone::White)) - against(Stone::Black)),
            ),
            (
                "territory_W",
                cells((vacant & against(Stone::Black)) - against(Stone::White)),
            ),
        ]);
        if viewer == Some(self.mover()) && self.game.outcome().is_none() {
            hints.insert("drop", cells(self.game.legal_moves().drops));
        }
        hints
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A value as its JSON, to look at its wire fields.
    fn wire<T: Serialize>(v: T) -> Value {
        serde_json::to_value(v).unwrap()
    }

    fn table() -> Box<dyn Table> {
        let orbit = Orbit::new();
        orbit
            .table(&orbit.games()[0], &RoomOptions::default(), 7)
            .unwrap()
    }

    fn play(t: &mut Box<dyn Table>, seat: &'static str, mv: &str) -> Applied {
        t.apply(Seat(seat), mv, 0)
            .unwrap_or_else(|e| panic!("{seat} {mv}: {e}"))
    }

    #[test]
    fn a_capture_is_one_move_event_with_the_removed_cells() {
        let mut t = table();
        for mv in ["e5", "k10", "e4"] {
            play(&mut t, "S", mv);
        }
        assert_eq!(t.turn().systems.orbit.phase.as_deref(), Some("choice"));
        let chose = play(&mut t, "N", "white");
        let ev: Value = serde_json::from_str(&chose.events[0]).unwrap();
        assert_eq!(ev["colour"], "W");
        assert_eq!(t.seats()[1].colour, "W");
        for (seat, mv) in [("N", "d5"), ("S", "a16"), ("N", "f5"), ("S", "p1")] {
            play(&mut t, seat, mv);
        }
        let captured = play(&mut t, "N", "e6");
        let ev: Value = serde_json::from_str(&captured.events[0]).unwrap();
        assert_eq!(ev["removed"], json!(["e5"]));
        assert!(!ev["position"].as_str().unwrap().contains("e5:"));
        let refused = t.apply(Seat("S"), "e5", 0).unwrap_err();
        assert_eq!(refused.code, Code::Illegal);
        assert_eq!(
            refused.message,
            "e5 is prohibited for black: it lies in white's orbit"
        );
        play(&mut t, "S", "pass");
        let over = wire(play(&mut t, "N", "pass").over.unwrap());
        assert_eq!(over["winner"], "N");
        assert_eq!(over["scores"], json!({"S": 0, "N": 1}));
    }

    #[test]
    fn a_timeout_passes_in_play_and_loses_in_the_opening() {
        let mut t = table();
        let lost = wire(play(&mut t, "S", TIMEOUT).over.unwrap());
        assert_eq!(lost["winner"], "N");
        assert_eq!(lost["end"], "time");
        assert!(t.apply(Seat("S"), "a1", 0).is_err());
        let mut t = table();
        for (seat, mv) in [("S", "a1"), ("S", "a2"), ("S", "a3"), ("N", "black")] {
            play(&mut t, seat, mv);
        }
        let passed = play(&mut t, "S", TIMEOUT);
        let ev: Value = serde_json::from_str(&passed.events[0]).unwrap();
        assert_eq!(ev["move"], "pass");
        assert_eq!(ev["timeout"], true);
        assert_eq!(t.mover(), Seat("N"));
    }
}
