//! Orbs as a game system (ORBS.md, the `orion-orbs` crate) behind the core's seam: one game,
//! `orbs`, for 2 to 6 seats named by the star's points. A `move` request's text (`d2-e6`) is
//! the action, a `draw` request's is `draw` (offer) or `draw accept`; every move is one `move`
//! event with the position after it, the holes whose orbs were removed and the seats it put
//! out, followed by a `pass` (a `move` event, `move` `pass`) for each seat passed over, and
//! the next `turn`.

use super::{from_map, move_text, option_map, turn_event};
use crate::clock::Millis;
use crate::protocol::{Code, Refusal};
use crate::system::{
    decided_job, Applied, BotJob, GameInfo, GameSystem, Hints, OptionField, OptionKind, Seat,
    SeatInfo, Table,
};
use orion_ai::systems::orbs::OrbsState;
use orion_ai::Observe;
use orion_orbs::{
    Colour, Draw, DrawError, Game, Hole, HoleSet, Move, Opening, Options, Outcome, Position,
    Seat as OrbsSeat, Winner,
};
use orion_protocol::{
    DrawOffer, Event, GameResult, OrbsMove, Request, RoomOptions, Scores, Seat as WireSeat,
    Snapshot, Turn, Winner as WireWinner,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The game's id on the wire.
const ID: &str = "orbs";

/// The action a turn clock running out takes: the mover passes (gives up his turn without
/// moving; it counts towards the quiet-moves draw).
const TIMEOUT: &str = "timeout";
/// The action text of a draw offer.
const DRAW_OFFER: &str = "draw";
/// The action text of accepting the draw on offer.
const DRAW_ACCEPT: &str = "draw accept";

/// The options an Orbs room takes, as a client writes them (everything optional) and as the
/// room stores and shows them (everything filled in).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
struct OrbsOptions {
    /// `classic` (each point filled with the classic rows) or `position`.
    opening: Option<String>,
    /// The start with opening `position`: a position string.
    position: Option<String>,
    /// Each player's tip orb is a void orb.
    void: bool,
    /// Holes out of play.
    holes: Vec<String>,
    /// With 4 or 6 players, opposite seats are partners.
    teams: bool,
    /// 2 to 6.
    players: u8,
}

impl Default for OrbsOptions {
    fn default() -> Self {
        OrbsOptions {
            opening: None,
            position: None,
            void: false,
            holes: Vec::new(),
            teams: false,
            players: 2,
        }
    }
}

impl OrbsOptions {
    /// The engine's options, and these options completed and written canonically.
    fn check(mut self) -> Result<(Options, OrbsOptions), String> {
        let opening = match (self.opening.as_deref(), &self.position) {
            (None | Some("classic"), None) => Opening::Classic,
            (None | Some("position"), Some(text)) => {
                let position: Position = text.parse().map_err(|e| format!("position: {e}"))?;
                self.position = Some(position.to_string());
                Opening::Position(Box::new(position))
            }
            (Some("classic"), Some(_)) => {
                return Err("a position is given only with opening \"position\"".into())
            }
            (Some("position"), None) => {
                return Err("opening \"position\" needs a position string".into())
            }
            (Some(other), _) => {
                let shown: String = other.chars().take(16).collect();
                return Err(format!(
                    "opening must be \"classic\" or \"position\", not \"{shown}\""
                ));
            }
        };
        self.opening = Some(match opening {
            Opening::Classic => "classic".into(),
            Opening::Position(_) => "position".into(),
        });
        let mut holes = HoleSet::EMPTY;
        for text in &self.holes {
            let hole: Hole = text.parse().map_err(|e| format!("holes: {e}"))?;
            holes.insert(hole);
        }
        self.holes = holes.iter().map(|h| h.to_string()).collect();
        let options = Options {
            players: self.players,
            opening,
            void: self.void,
            holes,
            teams: self.teams,
            first: None,
        };
        Ok((options, self))
    }
}

/// Orbs's one game.
pub struct Orbs {
    /// `orbs`, as the core sees it.
    games: Vec<GameInfo>,
}

impl Orbs {
    /// The system with its one game.
    pub fn new() -> Orbs {
        Orbs {
            games: vec![GameInfo {
                id: ID,
                name: "Orbs",
                players: 2..=6,
                default_players: 2,
                solo: false,
            }],
        }
    }

    /// Reads and checks options, setting the game up to be sure they make one.
    fn setup(options: Value) -> Result<(Game, OrbsOptions), Refusal> {
        let bad = |e: String| Refusal::new(Code::BadRequest, format!("options: {e}"));
        let parsed: OrbsOptions =
            serde_json::from_value(options).map_err(|e| bad(e.to_string()))?;
        let (engine, complete) = parsed.check().map_err(bad)?;
        let game = Game::new(engine).map_err(|e| bad(e.to_string()))?;
        Ok((game, complete))
    }
}

impl Default for Orbs {
    fn default() -> Self {
        Orbs::new()
    }
}

impl GameSystem for Orbs {
    fn id(&self) -> &'static str {
        ID
    }

    fn games(&self) -> &[GameInfo] {
        &self.games
    }

    fn option_fields(&self) -> Vec<OptionField> {
        let field = |name, label, help, kind, implies| OptionField {
            name,
            label,
            help,
            kind,
            implies,
        };
        vec![
            field(
                "void",
                "void orbs (tips)",
                "each player's orb on the tip of his point starts as a void orb",
                OptionKind::Flag,
                None,
            ),
            field(
                "teams",
                "teams (4 or 6)",
                "with 4 or 6 players, opposite players are partners and win together",
                OptionKind::Flag,
                None,
            ),
            field(
                "holes",
                "holes out of play",
                "holes nobody may enter, named like d2 e5",
                OptionKind::Names,
                None,
            ),
            field(
                "position",
                "start position",
                "start from this position (hole:orb pairs) instead of the usual one",
                OptionKind::Text,
                Some(("opening", "position")),
            ),
        ]
    }

    fn options(&self, _game: &GameInfo, options: RoomOptions) -> Result<RoomOptions, Refusal> {
        let (_, complete) = Orbs::setup(Value::Object(option_map(&options)))?;
        from_map(
            serde_json::to_value(&complete)
                .map_err(|e| Refusal::new(Code::BadRequest, format!("options: {e}")))?,
        )
    }

    fn table(
        &self,
        _game: &GameInfo,
        options: &RoomOptions,
        seed: u64,
    ) -> Result<Box<dyn Table>, Refusal> {
        let (game, _) = Orbs::setup(Value::Object(option_map(options)))?;
        let seats = game
            .seats()
            .iter()
            .map(|&s| SeatInfo {
                seat: seat_of(s),
                colour: game.colour_of(s).map_or("", letter),
            })
            .collect();
        Ok(Box::new(OrbsTable {
            game,
            seats,
            turns: 0,
            seed,
        }))
    }

    fn has_bots(&self) -> bool {
        true
    }

    fn action(&self, request: &Request) -> Option<Result<String, Refusal>> {
        match request {
            Request::Move { mv: text, .. } => Some(move_text(text).and_then(|text| {
                text.parse::<Move>()
                    .map(|mv| mv.to_string())
                    .map_err(|e| Refusal::new(Code::BadRequest, e.to_string()))
            })),
            Request::Draw { accept, .. } => Some(Ok(if *accept == Some(true) {
                DRAW_ACCEPT
            } else {
                DRAW_OFFER
            }
            .to_string())),
            _ => None,
        }
    }
}

/// One game of Orbs in play.
struct OrbsTable {
    /// The engine's game.
    game: Game,
    /// The seats in turn order, with their colours.
    seats: Vec<SeatInfo>,
    /// Turns taken (moves and timed-out passes), so that each starts a new turn for the
    /// turn clock even when the same seat moves again.
    turns: u32,
    /// The seed the room gave (Orbs has no chance; kept for the seed commitment).
    seed: u64,
}

/// The core's name of an Orbs seat.
fn seat_of(seat: OrbsSeat) -> Seat {
    Seat(seat.name())
}

/// The Orbs seat of a core seat.
fn orbs_seat(seat: Seat) -> Result<OrbsSeat, Refusal> {
    OrbsSeat::parse(seat.0)
        .ok_or_else(|| Refusal::new(Code::NotAPlayer, format!("seat {seat} does not play Orbs")))
}

/// A colour's letter, as in orb tokens.
fn letter(colour: Colour) -> &'static str {
    match colour {
        Colour::Red => "R",
        Colour::Blue => "B",
        Colour::Green => "G",
        Colour::Yellow => "Y",
        Colour::Orange => "O",
        Colour::Purple => "P",
    }
}

/// The wire's seat for an Orbs seat (Orbs's seats are compass points, as the wire's).
fn wire_seat(seat: OrbsSeat) -> WireSeat {
    seat_of(seat).wire()
}

/// Seats as on the wire.
fn names(seats: &[OrbsSeat]) -> Vec<WireSeat> {
    seats.iter().map(|&s| wire_seat(s)).collect()
}

/// A winner as on the wire: a seat, or a team `S+N`.
fn wire_winner(winner: Winner) -> WireWinner {
    match winner {
        Winner::Seat(s) => WireWinner::seat(wire_seat(s)),
        Winner::Team(a, b) => {
            WireWinner::team([a, b].map(wire_seat)).unwrap_or(WireWinner::seat(wire_seat(a)))
        }
    }
}

/// Why a seat passed: its turn clock ran out, or it had no legal move.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Pass {
    Timeout,
    Forced,
}

/// A refusal of a draw offer or acceptance.
fn draw_refusal(e: DrawError) -> Refusal {
    let code = match e {
        DrawError::NotPlaying(_) => Code::NotAPlayer,
        _ => Code::Illegal,
    };
    Refusal::new(code, e.to_string())
}

impl OrbsTable {
    /// The `result` object: the winner (or none) and orbs left per seat, and how it ended.
    fn result_of(&self, winner: Option<Winner>, end: &str) -> GameResult {
        GameResult {
            winner: winner.map(wire_winner),
            scores: self.scores(),
            orion: Default::default(),
            end: Some(end.to_string()),
            orbit: Default::default(),
        }
    }

    /// The `result` of a game over by the rules.
    fn outcome_result(&self, outcome: Outcome) -> GameResult {
        match outcome {
            Outcome::Win(w) => self.result_of(Some(w), "win"),
            Outcome::Draw(draw) => self.result_of(
                None,
                match draw {
                    Draw::NoCapture => "no_capture",
                    Draw::WipedOut => "wiped_out",
                    Draw::Agreed => "agreed",
                    Draw::Quiet => "quiet",
                    Draw::Stuck => "stuck",
                },
            ),
        }
    }

    /// A `pass` as a `move` event (as Orbit's passes are): `why` is `timeout` (the turn
    /// clock ran out) or `forced` (the seat had no legal move and was passed over).
    fn pass_event(&self, seat: OrbsSeat, why: Pass) -> String {
        Event::Move {
            seat: wire_seat(seat),
            mv: "pass".into(),
            position: self.game.position().to_string().into(),
            removed: Vec::new(),
            orbit: Default::default(),
            orbs: OrbsMove {
                out: Some(Vec::new()),
            },
            timeout: why == Pass::Timeout,
            forced: why == Pass::Forced,
        }
        .to_json()
    }

    /// Ends what an action did: a `pass` for each seat passed over, then the next `turn` or
    /// the result.
    fn settle(&self, applied: &mut Applied, passed: &[OrbsSeat]) {
        for &s in passed {
            applied.events.push(self.pass_event(s, Pass::Forced));
        }
        match self.game.outcome() {
            Some(outcome) => applied.over = Some(self.outcome_result(outcome)),
            None => applied.events.push(turn_event(self.turn()).to_json()),
        }
    }

    /// The sides still with orbs, each as its first seat in turn order (a team by either).
    fn sides_left(&self) -> Vec<Winner> {
        let mut sides: Vec<Winner> = Vec::new();
        for &s in self.game.seats() {
            if self.game.is_out(s) || sides.iter().any(|w| w.includes(s)) {
                continue;
            }
            let partner = s.opposite();
            sides.push(
                if self.game.teams() && self.game.colour_of(partner).is_some() {
                    Winner::Team(s, partner)
                } else {
                    Winner::Seat(s)
                },
            );
        }
        sides
    }
}

impl Table for OrbsTable {
    fn seats(&self) -> &[SeatInfo] {
        &self.seats
    }

    fn mover(&self) -> Seat {
        let first = self.game.seats().first().copied().unwrap_or(OrbsSeat::S);
        seat_of(self.game.mover().unwrap_or(first))
    }

    fn round(&self) -> u32 {
        self.turns + 1
    }

    fn seed(&self) -> u64 {
        self.seed
    }

    fn apply(&mut self, seat: Seat, action: &str, _now: Millis) -> Result<Applied, Refusal> {
        let seat = orbs_seat(seat)?;
        if self.game.outcome().is_some() {
            return Err(Refusal::new(Code::Illegal, "the game is over"));
        }
        let mut applied = Applied::default();
        if action == DRAW_OFFER || action == DRAW_ACCEPT {
            let accept = action == DRAW_ACCEPT;
            if accept {
                self.game.accept_draw(seat)
            } else {
                self.game.offer_draw(seat)
            }
            .map_err(draw_refusal)?;
            let ev = Event::Draw {
                seat: wire_seat(seat),
                accept,
                agreed: names(&self.game.draw_agreed()),
            };
            applied.events.push(ev.to_json());
            if let Some(outcome) = self.game.outcome() {
                applied.over = Some(self.outcome_result(outcome));
            }
            return Ok(applied);
        }
        let mover = self.game.mover();
        if mover != Some(seat) {
            let whose = mover.map_or("nobody's".to_string(), |m| format!("{m}'s"));
            return Err(Refusal::new(
                Code::NotYourTurn,
                format!("it is {whose} turn, not {seat}'s"),
            ));
        }
        if action == TIMEOUT {
            let passed = self
                .game
                .pass()
                .map_err(|e| Refusal::new(Code::Illegal, e.to_string()))?;
            self.turns += 1;
            applied.events.push(self.pass_event(seat, Pass::Timeout));
            self.settle(&mut applied, &passed);
            return Ok(applied);
        }
        let mv: Move = action.parse().map_err(|e: orion_orbs::MoveTextError| {
            Refusal::new(Code::BadRequest, e.to_string())
        })?;
        let effect = self
            .game
            .play(mv)
            .map_err(|e| Refusal::new(Code::Illegal, e.to_string()))?;
        self.turns += 1;
        let ev = Event::Move {
            seat: wire_seat(seat),
            mv: mv.to_string().into(),
            position: self.game.position().to_string().into(),
            removed: effect
                .removed
                .iter()
                .map(|h| h.to_string().into())
                .collect(),
            orbit: Default::default(),
            orbs: OrbsMove {
                out: Some(names(&effect.out)),
            },
            timeout: false,
            forced: false,
        };
        applied.events.push(ev.to_json());
        self.settle(&mut applied, &effect.passed);
        Ok(applied)
    }

    fn timeout_action(&self) -> &'static str {
        TIMEOUT
    }

    fn position(&self) -> String {
        self.game.position().to_string()
    }

    fn turn(&self) -> Turn {
        // `clicks` and `used` are every turn's fields (PROTOCOL.md); a step is no click.
        // Every turn names a seat, so a finished game names the first seat.
        Turn {
            seat: self.mover().wire(),
            clicks: None,
            used: 0,
            round: self.round(),
            systems: Default::default(),
        }
    }

    fn scores(&self) -> Scores {
        self.game
            .seats()
            .iter()
            .map(|&s| {
                let left = self
                    .game
                    .colour_of(s)
                    .map_or(0, |c| self.game.position().count(c));
                (wire_seat(s), u32::try_from(left).unwrap_or(u32::MAX))
            })
            .collect()
    }

    fn view(&self, _viewer: Option<Seat>, snapshot: &mut Snapshot) {
        // Every snapshot lists the chains open to claims (PROTOCOL.md): Orbs has none.
        snapshot.systems.orbs.out = Some(names(&self.game.out()));
        let agreed = self.game.draw_agreed();
        snapshot.systems.orbs.draw = Some((!agreed.is_empty()).then(|| DrawOffer {
            agreed: names(&agreed),
        }));
    }

    fn result(&self) -> Option<GameResult> {
        self.game.outcome().map(|o| self.outcome_result(o))
    }

    fn forfeit(&self, seat: Seat) -> GameResult {
        let loser = orbs_seat(seat).ok();
        let others: Vec<Winner> = self
            .sides_left()
            .into_iter()
            .filter(|w| loser.is_none_or(|l| !w.includes(l)))
            .collect();
        let winner = match others.as_slice() {
            [one] => Some(*one),
            _ => None,
        };
        self.result_of(winner, "time")
    }

    fn abandoned(&self) -> GameResult {
        self.result_of(None, "abandoned")
    }

    fn hidden_choice(&self, _event: &Event<'_>) -> Option<Seat> {
        None
    }

    /// With partners, opposite seats play as one side (each moves its own colour).
    fn sides(&self) -> Vec<Vec<Seat>> {
        let mut sides: Vec<Vec<Seat>> = Vec::new();
        for &s in self.game.seats() {
            if sides.iter().any(|side| side.contains(&seat_of(s))) {
                continue;
            }
            let partner = s.opposite();
            if self.game.teams() && self.game.colour_of(partner).is_some() {
                sides.push(vec![seat_of(s), seat_of(partner)]);
            } else {
                sides.push(vec![seat_of(s)]);
            }
        }
        sides
    }

    fn bot_job(&self, seat: Seat, _now: Millis) -> Option<BotJob> {
        let seat = orbs_seat(seat).ok()?;
        if self.game.mover() != Some(seat) {
            return None;
        }
        // Nothing is hidden in Orbs: the seat's view is the game.
        let state = OrbsState::new(self.game.clone());
        let view = state.view(state.player_of(seat)?);
        Some(decided_job(view))
    }

    fn clone_table(&self) -> Box<dyn Table> {
        Box::new(OrbsTable {
            game: self.game.clone(),
            seats: self.seats.clone(),
            turns: self.turns,
            seed: self.seed,
        })
    }

    /// The viewer's legal moves (`move`: `from-to` texts) when it is to move.
    fn hints(&self, viewer: Option<Seat>, _now: Millis) -> Hints {
        let mover = self.game.mover();
        match viewer.and_then(|s| orbs_seat(s).ok()) {
            Some(seat) if Some(seat) == mover => Hints::from([(
                "move",
                self.game
                    .legal_moves()
                    .iter()
                    .map(ToString::to_string)
                    .collect(),
            )]),
            _ => Hints::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn options(v: Value) -> Result<Value, Refusal> {
        let orbs = Orbs::new();
        let options = serde_json::from_value(v).unwrap();
        let done = orbs.options(&orbs.games()[0], options)?;
        Ok(serde_json::to_value(done).unwrap())
    }

    fn typed(v: Value) -> RoomOptions {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn options_are_checked_and_completed() {
        assert_eq!(
            options(json!({})).unwrap(),
            json!({"opening": "classic", "position": null, "void": false, "holes": [],
                   "teams": false, "players": 2})
        );
        let given = options(json!({"position": "q1:BF a1:RW", "holes": ["i5", "a1"]}));
        assert_eq!(
            given.unwrap_err().message,
            "options: a1 is out of play but holds an orb"
        );
        let done = options(json!({"position": "q1:BF a1:RW", "holes": ["i6", "i5"]})).unwrap();
        assert_eq!(done["opening"], "position");
        assert_eq!(done["position"], "a1:RW q1:BF");
        assert_eq!(done["holes"], json!(["i5", "i6"]));
        for (bad, says) in [
            (json!({"colour": 1}), "unknown field `colour`"),
            (json!({"players": 7}), "Orbs is for 2 to 6 players, not 7"),
            (
                json!({"teams": true, "players": 3}),
                "teams need 4 or 6 players",
            ),
            (json!({"opening": "random"}), "opening must be"),
            (json!({"opening": "position"}), "needs a position"),
            (json!({"holes": ["z9"]}), "holes:"),
        ] {
            let e = options(bad.clone()).unwrap_err();
            assert_eq!(e.code, Code::BadRequest);
            assert!(e.message.contains(says), "{bad}: {}", e.message);
        }
    }

    #[test]
    fn forfeit_gives_the_win_to_the_one_side_left() {
        let orbs = Orbs::new();
        let game = &orbs.games()[0];
        let t = orbs
            .table(game, &typed(options(json!({"players": 3})).unwrap()), 1)
            .unwrap();
        let winner = |t: &dyn Table, seat| t.forfeit(Seat(seat)).winner.map(|w| w.to_string());
        assert_eq!(winner(&*t, "S"), None);
        let t = orbs
            .table(game, &typed(options(json!({})).unwrap()), 1)
            .unwrap();
        assert_eq!(winner(&*t, "S").as_deref(), Some("N"));
        let teams = options(json!({"players": 4, "teams": true})).unwrap();
        let t = orbs.table(game, &typed(teams), 1).unwrap();
        assert_eq!(winner(&*t, "SW").as_deref(), Some("NW+SE"));
    }
}
