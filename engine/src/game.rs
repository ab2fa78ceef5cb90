//! A game in progress, driven one action at a time. `Game::step` takes one action from one
//! seat with the caller's clock time and returns the events it caused (ORION.md section 4:
//! every click resolves at once — chains, claims, captures, building). Each game of the
//! booklet is a `Rules` value in `games/`; this file holds what they share.

use crate::board::{Click, Edge, Slot, SlotSet};
use crate::chain::has_chain;
use crate::fence;
use crate::piece::{Colour, Piece, PIECES_PER_COLOUR};
use crate::position::Position;
use crate::puzzles::AquariusTest;
use crate::rules::{reverses, Die, LastMove, MoveState, RuleError};
use crate::seat::{Seat, SeatInfo};
use rand::{RngCore, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::ops::RangeInclusive;
use thiserror::Error;

/// Milliseconds since the Unix epoch, as the caller's clock reads them.
pub type Millis = u64;

/// The most clicks any option may grant in one move (the earlier server's bound).
pub const MAX_CLICKS: u8 = 6;
/// Most faces a die option may have: the booklet's die has six, and a bound keeps a room's
/// options (sent in every listing and snapshot) small.
pub const MAX_DIE_FACES: usize = 12;

/// How long another player has to claim a chain made for him by someone else's click.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClaimWindow {
    /// The chain wins at once, no claim needed.
    Auto,
    /// Milliseconds from the click that made the chain.
    Millis(u64),
}

impl Default for ClaimWindow {
    fn default() -> Self {
        ClaimWindow::Millis(5_000)
    }
}

impl Serialize for ClaimWindow {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            ClaimWindow::Auto => s.serialize_str("auto"),
            ClaimWindow::Millis(ms) => s.serialize_u64(*ms),
        }
    }
}

impl<'de> Deserialize<'de> for ClaimWindow {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Ms(u64),
            Word(String),
        }
        match Raw::deserialize(d)? {
            Raw::Ms(ms) if ms <= 600_000 => Ok(ClaimWindow::Millis(ms)),
            Raw::Ms(_) => Err(serde::de::Error::custom(
                "claim window must be at most 600000 ms",
            )),
            Raw::Word(w) if w == "auto" => Ok(ClaimWindow::Auto),
            Raw::Word(w) => Err(serde::de::Error::custom(format!(
                "claim window must be milliseconds or \"auto\", not \"{w}\""
            ))),
        }
    }
}

/// Options a room may set for its game. Unknown fields are refused so typos are noticed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    /// Clicks per move where the game has a fixed number (1..=6); `None` is the game's own.
    pub clicks: Option<u8>,
    /// Faces of the special die.
    pub die: Vec<u8>,
    /// The claim window for chains made by someone else's click.
    pub claim_window: ClaimWindow,
    /// Number of players, where the game allows a range; `None` is the game's smallest.
    pub players: Option<u8>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            clicks: None,
            die: Die::default().faces,
            claim_window: ClaimWindow::default(),
            players: None,
        }
    }
}

/// How a turn is to be used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Allowance {
    /// Up to this many clicks.
    Clicks(u8),
    /// The mover chooses: throw the die, or take three clicks.
    DieOrThree,
    /// The mover must throw the die.
    Die,
    /// The turn is one placement of a new piece.
    Place(PlaceRule),
}

/// Where a placement turn may put its piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlaceRule {
    /// Any empty slot.
    Anywhere,
    /// An empty slot touching the board edge (along it or with a point).
    TouchingEdge,
    /// One of these slots (Auriga's entry slots).
    Slots(SlotSet),
}

impl PlaceRule {
    /// Whether the rule lets a piece go on `slot` (emptiness aside).
    pub fn allows(self, slot: Slot) -> bool {
        match self {
            PlaceRule::Anywhere => true,
            PlaceRule::TouchingEdge => Edge::ALL.iter().any(|e| e.touching().contains(slot)),
            PlaceRule::Slots(set) => set.contains(slot),
        }
    }
}

/// The live mechanisms of section 4 a game uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Mechanics {
    /// Hydra chains between a seat's edge and the opposite edge, with claims.
    pub chains: bool,
    /// Orion fences and captures.
    pub captures: bool,
    /// Building: new pieces on slots the mover's pieces just left.
    pub building: bool,
}

/// How far a one-player puzzle has come, for a room to show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PuzzleProgress {
    /// Clicks made so far (Aquarius: tries made).
    pub clicks: u32,
    /// The booklet's target: its click count (Aquarius: the five tries); `None` where the
    /// booklet gives none.
    pub target: Option<u32>,
}

/// One game of the booklet: its seats, start, schedule of clicks, and special rules.
/// Implementations live one per file in `games/`; the puzzles, as one-player rooms, too.
pub trait Rules: Send + Sync + 'static {
    /// Short id used on the wire and the command line (`hydra-2`).
    fn id(&self) -> &'static str;
    /// The booklet's name (`Hydra for Two`).
    fn name(&self) -> &'static str;
    /// How many players may play.
    fn players(&self) -> RangeInclusive<u8>;
    /// The seats in turn order for `players` players, with their colours.
    fn seats(&self, players: u8) -> Vec<SeatInfo>;
    /// The starting position; `rng` (seeded by the room) serves games that start at random.
    fn start(&self, seats: &[SeatInfo], options: &Options, rng: &mut dyn RngCore) -> Position;
    /// Index into the seats of who moves first (a toss, in Taurus).
    fn first_mover(&self, _rng: &mut dyn RngCore, _seats: usize) -> usize {
        0
    }
    /// How many players when the room does not say.
    fn default_players(&self) -> u8 {
        *self.players().start()
    }
    /// How `seat`'s turn in round `round` (1-based) is played.
    fn allowance(&self, seat: Seat, round: u32, options: &Options) -> Allowance;
    /// How `seat`'s turn is played given the whole game (a game whose schedule depends on the
    /// board overrides this; the default is [`Rules::allowance`]).
    fn turn_allowance(&self, game: &Game, seat: Seat, round: u32) -> Allowance {
        self.allowance(seat, round, game.options())
    }
    /// The live mechanisms the game uses.
    fn mechanics(&self) -> Mechanics {
        Mechanics::default()
    }
    /// Whether a seat may end a move without clicking.
    fn may_pass(&self) -> bool {
        true
    }
    /// The colours that have reached the game's goal: checked after every change
    /// (`turn_end` false) and when a turn ends (`turn_end` true).
    fn goal(&self, _game: &Game, _turn_end: bool) -> Vec<Colour> {
        Vec::new()
    }
    /// Whether the same-piece rule narrows the pieces moved click by click (Bootes shares a
    /// move between two dogs).
    fn same_piece(&self) -> bool {
        true
    }
    /// A game's own refusal of a click, checked before the basic rules.
    fn check_click(&self, _game: &Game, _click: Click) -> Result<(), RuleError> {
        Ok(())
    }
    /// A game's own check of how a move ends (`position` and `candidates` as they would be).
    fn end_check(
        &self,
        _game: &Game,
        _position: &Position,
        _candidates: SlotSet,
    ) -> Result<(), RuleError> {
        Ok(())
    }
    /// Called when a turn begins, to set up per-move bookkeeping.
    fn begin_turn(&self, _game: &mut Game) {}
    /// Called after each click of the mover, with the position before it.
    fn after_click(&self, _game: &mut Game, _before: &Position, _click: Click) {}
    /// Called when the game ends, before the outcome is announced (final scoring).
    fn on_finish(&self, _game: &mut Game, _winner: Option<Winner>) {}
    /// The winner when `reached` colours reached the goal: by default one colour wins and
    /// several draw; a scored game may award points and decide by score instead.
    fn on_goal(&self, game: &mut Game, reached: &[Colour]) -> Option<Winner> {
        match reached {
            [one] => Some(game.winner_for(*one)),
            _ => None,
        }
    }
    /// A game's own actions (Algol's secret and challenge; every click of a puzzle). Must
    /// refuse before changing anything.
    fn special(
        &self,
        _game: &mut Game,
        _seat: Seat,
        _action: Action,
        _events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        Err(ActionError::Phase("this game has no such action"))
    }
    /// Whether the no-reversal rule applies, given whether the previous move and this one
    /// entered new pieces.
    fn reversal_applies(&self, _previous_entered: bool, _this_entered: bool) -> bool {
        true
    }
    /// A one-player puzzle's progress (ORION.md section 6); `None` for the games. A puzzle
    /// plays differently: each click goes to [`Rules::special`], which checks it by the
    /// puzzle's own rule instead of the basic rules (colour, same piece, clicks,
    /// no-reversal); its one turn has no clicks limit and lasts until [`Rules::goal`].
    fn progress(&self, _game: &Game) -> Option<PuzzleProgress> {
        None
    }
}

/// What a seat asks to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Turn a rotor; optionally naming the piece being moved.
    Click { click: Click, piece: Option<Piece> },
    /// Place a new piece on `slot` (a placement turn, or building); `from` moves one of the
    /// mover's pieces instead, when all 20 are on the board.
    Place { slot: Slot, from: Option<Slot> },
    /// End the move now.
    EndTurn,
    /// Throw the die for the number of clicks.
    Roll,
    /// Take three clicks instead of the die.
    Three,
    /// Claim a chain made by another player's click.
    Claim,
    /// The mover's turn clock ran out (sent by the server, not a player).
    Timeout,
    /// Algol: choose one's secret man (before the first move; hidden until the end).
    Secret { piece: Piece },
    /// Algol: challenge an opponent's piece that one of the mover's pieces is in line with.
    Challenge { piece: Piece },
}

/// Who won.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Winner {
    /// One seat.
    Seat(Seat),
    /// A team of partners, by its seats.
    Team(Seat, Seat),
}

impl fmt::Display for Winner {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Winner::Seat(s) => write!(f, "{s}"),
            Winner::Team(a, b) => write!(f, "{a}+{b}"),
        }
    }
}

/// The end of a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The winner, or `None` for a draw.
    pub winner: Option<Winner>,
    /// Points per seat, in seat order (all zero in games without scores).
    pub scores: Vec<(Seat, u32)>,
    /// Hidden choices revealed at the end (Algol's secret men), so anyone can check them
    /// against the commitments published at the start.
    pub reveals: Vec<Reveal>,
}

/// A secret revealed at the end of the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reveal {
    /// Whose secret.
    pub seat: Seat,
    /// The secret man.
    pub piece: Piece,
    /// The salt, in hex, that was hashed with the piece's number.
    pub salt: String,
    /// The commitment published when it was chosen: SHA-256 of `"{number}:{salt}"`, in hex.
    pub commitment: String,
}

/// One state change, in the order it happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A rotor turned; `position` is the board after it.
    Click {
        seat: Seat,
        click: Click,
        position: Position,
    },
    /// A piece was placed (or moved from `from` when the supply is empty).
    Place {
        seat: Seat,
        slot: Slot,
        piece: Piece,
        from: Option<Slot>,
        position: Position,
    },
    /// The slots the mover may now build on.
    Eligible { slots: SlotSet },
    /// The die was thrown.
    Roll { seat: Seat, value: u8 },
    /// A turn begins (or, after a die or three, its clicks are known).
    Turn {
        seat: Seat,
        /// Clicks allowed, `None` while the mover still chooses die or three, `Some(0)` for a
        /// placement turn.
        clicks: Option<u8>,
        round: u32,
    },
    /// A chain of `colour` exists; `claim_until` is when its claim window closes, `None`
    /// when it was awarded at once.
    Chain {
        colour: Colour,
        claim_until: Option<Millis>,
    },
    /// A claim was made.
    Claim { seat: Seat, ok: bool },
    /// The mover captured pieces.
    Capture {
        seat: Seat,
        slots: SlotSet,
        points: u32,
        position: Position,
    },
    /// The game ended.
    Over { outcome: Outcome },
    /// Algol: a seat chose its secret man; only the commitment is public.
    Secret { seat: Seat, commitment: String },
    /// Algol: `seat` challenged `piece`; `hit` if it was the secret man. `removed` is the
    /// challenger's piece taken off after a wrong challenge, or every slot of the found-out
    /// player's men after a right one.
    Challenge {
        seat: Seat,
        piece: Piece,
        hit: bool,
        removed: SlotSet,
        position: Position,
    },
    /// Aquarius: one try of the telepathy test. `chain` is the chain it was made against,
    /// shown only now the try is made (the next one stays hidden); `tries` and `hits` count
    /// the test so far.
    Try {
        seat: Seat,
        click: Click,
        hit: bool,
        chain: SlotSet,
        tries: u8,
        hits: u8,
    },
}

/// Why an action was refused. Nothing changed.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ActionError {
    /// The game has ended.
    #[error("the game is over")]
    GameOver,
    /// Another seat is moving.
    #[error("it is {0}'s turn")]
    NotYourTurn(Seat),
    /// A seat that is not in this game.
    #[error("seat {0} does not play in this game")]
    NoSuchSeat(Seat),
    /// A basic or game rule.
    #[error(transparent)]
    Rule(#[from] RuleError),
    /// The action does not fit this moment of the turn.
    #[error("{0}")]
    Phase(&'static str),
    /// A placement on a slot that may not take it.
    #[error("{slot} {why}")]
    BadPlace { slot: Slot, why: &'static str },
    /// A claim with nothing to claim.
    #[error("no chain of yours is open to claim")]
    NothingToClaim,
}

impl ActionError {
    /// The protocol error code for this refusal.
    pub fn code(&self) -> &'static str {
        match self {
            ActionError::NotYourTurn(_) => "not_your_turn",
            ActionError::NoSuchSeat(_) => "not_a_player",
            _ => "illegal",
        }
    }
}

/// A chain made for a seat by someone else's click, open to be claimed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct OpenClaim {
    colour: Colour,
    until: Millis,
}

/// The turn in progress.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Turn {
    /// Index into `Game::seats` of the mover.
    pub(crate) mover: usize,
    /// 1-based round (every seat's k-th turn is round k).
    pub(crate) round: u32,
    /// How the turn is to be used.
    pub(crate) allowance: Allowance,
    /// The clicks rule and same-piece rule state; `allowed` is 0 until the clicks are known.
    pub(crate) state: MoveState,
    /// Slots the mover may build on now.
    pub(crate) eligible: SlotSet,
    /// Whether this move entered a new piece.
    pub(crate) entered: bool,
    /// The position when the turn began (for the no-reversal rule and time-outs).
    pub(crate) before: Position,
    /// The clicks made so far, to undo a reversing move when the clock runs out.
    pub(crate) clicks: [Option<Click>; MAX_MOVE_CLICKS],
}

/// The most clicks one move can hold: Lepus's two plus five hops of two.
pub const MAX_MOVE_CLICKS: usize = 12;

/// Bookkeeping that some games keep beyond the board, by seat index.
#[derive(Clone, Debug, Default)]
pub(crate) struct Memory {
    /// Auriga: each seat's winding angle (radians, counter-clockwise) around the centre.
    pub(crate) winding: [f64; 4],
    /// Seats out of the game (Algol's found-out players); their turns are skipped.
    pub(crate) out: [bool; 4],
    /// Lepus: hops taken this move.
    pub(crate) hops: u8,
    /// Lepus: clicks used in the current part of the move.
    pub(crate) part_used: u8,
    /// Lepus: the rotors each of the mover's pieces (by number) was in when the part began.
    pub(crate) part_rotors_by_number: [crate::board::RotorSet; 21],
    /// Draco: twice the level of each of the mover's pieces (by number) when the move began.
    pub(crate) start_level2: [u8; 21],
    /// Algol: each seat's secret man, once chosen.
    pub(crate) secrets: [Option<Piece>; 4],
    /// Algol: the salt hashed with each secret.
    pub(crate) salts: [[u8; 16]; 4],
    /// Aquarius: the test, with the chain of the next try (hidden from everyone).
    pub(crate) aquarius: Option<AquariusTest>,
}

/// A game in progress.
#[derive(Clone)]
pub struct Game {
    /// The game's rules.
    rules: &'static dyn Rules,
    /// The options it was created with.
    options: Options,
    /// Seats in turn order.
    seats: Vec<SeatInfo>,
    /// The board.
    position: Position,
    /// The turn in progress.
    pub(crate) turn: Turn,
    /// The previous move, for the no-reversal rule.
    last_move: Option<LastMove>,
    /// Per-game bookkeeping beyond the board.
    pub(crate) memory: Memory,
    /// Index of the seat that moved first (rounds begin with it).
    first: usize,
    /// The seed the game was created with (published after the game where it drew a start).
    seed: u64,
    /// Chains open to be claimed.
    claims: Vec<OpenClaim>,
    /// Which colours held a chain after the last change (a chain is "made" when it appears).
    chains_before: u8,
    /// Points per seat (same order as `seats`).
    pub(crate) scores: Vec<u32>,
    /// The result, once the game is over.
    outcome: Option<Outcome>,
    /// The random source for the die (and salts), seeded by the caller so a game replays.
    pub(crate) rng: ChaCha8Rng,
    /// The die.
    die: Die,
}

impl fmt::Debug for Game {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Game")
            .field("game", &self.rules.id())
            .field("position", &self.position)
            .field("turn", &self.turn)
            .field("outcome", &self.outcome)
            .finish()
    }
}

/// Why a game could not be set up.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SetupError {
    /// A player count the game does not allow.
    #[error("{game} is played by {min} to {max} players, not {players}")]
    Players {
        game: &'static str,
        min: u8,
        max: u8,
        players: u8,
    },
    /// A clicks option out of range.
    #[error("clicks must be 1 to {MAX_CLICKS}, not {0}")]
    Clicks(u8),
    /// A die with a face out of range.
    #[error("a die has 1 to {MAX_DIE_FACES} faces, each 1 to {MAX_CLICKS}")]
    Die,
    /// A mover who does not play in this game.
    #[error("seat {0} does not play in this game")]
    NoSuchSeat(Seat),
}

impl Game {
    /// Sets up a game of `rules` with `options`. `seed` drives every throw of the die: the
    /// same seed and the same actions give the same game.
    pub fn new(rules: &'static dyn Rules, options: Options, seed: u64) -> Result<Game, SetupError> {
        let rng = ChaCha8Rng::seed_from_u64(seed);
        let range = rules.players();
        let players = options.players.unwrap_or(rules.default_players());
        if !range.contains(&players) {
            return Err(SetupError::Players {
                game: rules.name(),
                min: *range.start(),
                max: *range.end(),
                players,
            });
        }
        if let Some(c) = options.clicks {
            if c == 0 || c > MAX_CLICKS {
                return Err(SetupError::Clicks(c));
            }
        }
        if options.die.is_empty()
            || options.die.len() > MAX_DIE_FACES
            || options.die.iter().any(|&f| f == 0 || f > MAX_CLICKS)
        {
            return Err(SetupError::Die);
        }
        let mut rng = rng;
        let seats = rules.seats(players);
        let position = rules.start(&seats, &options, &mut rng);
        let first = rules
            .first_mover(&mut rng, seats.len())
            .min(seats.len() - 1);
        let die = Die {
            faces: options.die.clone(),
        };
        let scores = vec![0; seats.len()];
        let mut game = Game {
            rules,
            options,
            seats,
            position,
            turn: Turn {
                mover: 0,
                round: 1,
                allowance: Allowance::Clicks(0),
                state: MoveState::new(0, SlotSet::EMPTY),
                eligible: SlotSet::EMPTY,
                entered: false,
                before: position,
                clicks: [None; MAX_MOVE_CLICKS],
            },
            last_move: None,
            memory: Memory::default(),
            first,
            seed,
            claims: Vec::new(),
            chains_before: 0,
            scores,
            outcome: None,
            rng,
            die,
        };
        game.chains_before = game.chain_mask();
        game.begin_turn(first, 1);
        Ok(game)
    }

    /// Sets up a game from any position, with `mover` to move in round `round`: for tests,
    /// analysis and bots that start mid-game.
    pub fn from_position(
        rules: &'static dyn Rules,
        options: Options,
        seed: u64,
        position: Position,
        mover: Seat,
        round: u32,
    ) -> Result<Game, SetupError> {
        let mut game = Game::new(rules, options, seed)?;
        let index = game
            .seats
            .iter()
            .position(|s| s.seat == mover)
            .ok_or(SetupError::NoSuchSeat(mover))?;
        game.position = position;
        game.chains_before = game.chain_mask();
        game.begin_turn(index, round.max(1));
        Ok(game)
    }

    /// The events that open the game: the start position and the first turn.
    pub fn start_events(&self) -> Vec<Event> {
        vec![self.turn_event()]
    }

    /// The seed the game was created with.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Seats still in the game (Algol removes found-out players).
    pub fn in_play(&self, seat: Seat) -> bool {
        self.seats
            .iter()
            .position(|s| s.seat == seat)
            .is_some_and(|i| !self.memory.out[i])
    }

    /// Auriga: each seat's progress round the course, in laps (counter-clockwise).
    pub fn laps(&self) -> Vec<(Seat, f64)> {
        self.seats
            .iter()
            .enumerate()
            .map(|(i, s)| (s.seat, self.memory.winding[i] / std::f64::consts::TAU))
            .collect()
    }

    /// The game's rules.
    pub fn rules(&self) -> &'static dyn Rules {
        self.rules
    }

    /// The options.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Seats in turn order.
    pub fn seats(&self) -> &[SeatInfo] {
        &self.seats
    }

    /// The board now.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The board, for a game's own actions.
    pub(crate) fn position_mut(&mut self) -> &mut Position {
        &mut self.position
    }

    /// The seat to move.
    pub fn mover(&self) -> Seat {
        self.seats[self.turn.mover].seat
    }

    /// The current round, 1-based.
    pub fn round(&self) -> u32 {
        self.turn.round
    }

    /// Clicks allowed this turn (`None` while the mover chooses die or three; 0 in a
    /// placement turn) and clicks used.
    pub fn clicks(&self) -> (Option<u8>, u8) {
        (self.known_clicks(), self.turn.state.used)
    }

    /// Slots the mover may build on now.
    pub fn eligible(&self) -> SlotSet {
        self.turn.eligible
    }

    /// Every secret with its salt and commitment, for the end of the game (also when the
    /// server ends it, by abandonment or time).
    pub fn reveals(&self) -> Vec<Reveal> {
        (0..self.seats.len())
            .filter_map(|i| {
                self.memory.secrets[i].map(|piece| Reveal {
                    seat: self.seats[i].seat,
                    piece,
                    salt: crate::secret::hex(&self.memory.salts[i]),
                    commitment: crate::secret::commitment(piece.number(), &self.memory.salts[i]),
                })
            })
            .collect()
    }

    /// `seat`'s own secret (Algol): for its owner's eyes only until the game is over.
    pub fn secret(&self, seat: Seat) -> Option<Piece> {
        let i = self.seats.iter().position(|s| s.seat == seat)?;
        self.memory.secrets[i]
    }

    /// Where the piece being moved could be (the same-piece rule's candidates).
    pub fn candidates(&self) -> SlotSet {
        self.turn.state.candidates
    }

    /// How the current turn is to be used.
    pub fn allowance(&self) -> Allowance {
        self.turn.allowance
    }

    /// Points per seat.
    pub fn scores(&self) -> Vec<(Seat, u32)> {
        self.seats
            .iter()
            .zip(&self.scores)
            .map(|(s, &p)| (s.seat, p))
            .collect()
    }

    /// The result, once over.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    /// The colour `seat` moves, if it plays.
    pub fn colour_of(&self, seat: Seat) -> Option<Colour> {
        self.seats.iter().find(|s| s.seat == seat).map(|s| s.colour)
    }

    /// Chains open to be claimed: colour and deadline.
    pub fn open_claims(&self) -> Vec<(Colour, Millis)> {
        self.claims.iter().map(|c| (c.colour, c.until)).collect()
    }

    /// Whether the move in progress would, if ended now, break the no-reversal rule.
    pub fn would_reverse(&self) -> bool {
        self.rules
            .reversal_applies(self.last_move.is_some_and(|m| m.entered), self.turn.entered)
            && reverses(self.last_move.as_ref(), &self.position)
    }

    /// A one-player puzzle's progress (clicks used, the booklet's target); `None` in a game.
    pub fn progress(&self) -> Option<PuzzleProgress> {
        self.rules.progress(self)
    }

    /// Whether this is a one-player puzzle rather than a game.
    pub fn is_puzzle(&self) -> bool {
        self.progress().is_some()
    }

    /// Checks that `click` would be legal now, without making it.
    pub fn check_click(&self, seat: Seat, click: Click) -> Result<(), ActionError> {
        self.check_mover(seat)?;
        if self.is_puzzle() {
            return Ok(self.rules.check_click(self, click)?);
        }
        self.check_clicking()?;
        self.rules.check_click(self, click)?;
        let own = self.position.of(self.seats[self.turn.mover].colour);
        self.turn.state.check(own, click)?;
        self.check_last_click(click, self.turn.state)?;
        Ok(())
    }

    /// Performs one action of `seat` at time `now`.
    pub fn step(
        &mut self,
        seat: Seat,
        action: Action,
        now: Millis,
    ) -> Result<Vec<Event>, ActionError> {
        let mut events = Vec::new();
        self.step_into(seat, action, now, &mut events)?;
        Ok(events)
    }

    /// As [`Game::step`], appending the events to `events` so a caller that steps many games
    /// can reuse one buffer (no allocation per click). On a refusal `events` is unchanged.
    pub fn step_into(
        &mut self,
        seat: Seat,
        action: Action,
        now: Millis,
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        let mark = events.len();
        let result = self.dispatch(seat, action, now, events);
        if result.is_err() {
            events.truncate(mark);
        }
        result
    }

    fn dispatch(
        &mut self,
        seat: Seat,
        action: Action,
        now: Millis,
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        if self.outcome.is_some() {
            return Err(ActionError::GameOver);
        }
        if !self.seats.iter().any(|s| s.seat == seat) {
            return Err(ActionError::NoSuchSeat(seat));
        }
        match action {
            Action::Click { .. } if self.is_puzzle() => {
                self.check_mover(seat)?;
                let rules = self.rules;
                rules.special(self, seat, action, events)?;
                self.check_goal(false, events);
            }
            Action::EndTurn if self.is_puzzle() => {
                return Err(ActionError::Phase(
                    "a puzzle is one move with no end but its finish: just click",
                ))
            }
            Action::Claim => self.claim(seat, now, events)?,
            Action::Secret { .. } | Action::Challenge { .. } => {
                let rules = self.rules;
                rules.special(self, seat, action, events)?;
            }
            Action::Click { click, piece } => self.click(seat, click, piece, now, events)?,
            Action::Place { slot, from } => self.place(seat, slot, from, now, events)?,
            Action::EndTurn => {
                self.check_mover(seat)?;
                if let Allowance::Place(rule) = self.turn.allowance {
                    // A placement turn passes only when no slot it allows is free.
                    let free = !self.position.occupied();
                    if Slot::ALL
                        .iter()
                        .any(|&s| free.contains(s) && rule.allows(s))
                    {
                        return Err(ActionError::Phase("place your piece first"));
                    }
                }
                if self.turn.state.used == 0 && !self.rules.may_pass() {
                    return Err(ActionError::Phase("you may not pass in this game"));
                }
                if self.would_reverse() {
                    return Err(RuleError::Reversal.into());
                }
                if self.turn.state.used > 0 {
                    self.rules
                        .end_check(self, &self.position, self.turn.state.candidates)?;
                }
                self.end_turn(events);
            }
            Action::Roll | Action::Three => {
                self.check_mover(seat)?;
                let value = match (self.turn.allowance, action) {
                    (Allowance::DieOrThree | Allowance::Die, Action::Roll) => {
                        let v = self.die.roll(&mut self.rng);
                        events.push(Event::Roll { seat, value: v });
                        v
                    }
                    (Allowance::DieOrThree, Action::Three) => 3,
                    (Allowance::Die, _) => {
                        return Err(ActionError::Phase("you must throw the die this turn"))
                    }
                    _ => {
                        return Err(ActionError::Phase(
                            "this turn has no choice of die or three",
                        ))
                    }
                };
                self.turn.allowance = Allowance::Clicks(value);
                self.turn.state.allowed = value;
                events.push(self.turn_event());
            }
            Action::Timeout => {
                self.check_mover(seat)?;
                let mover = self.mover();
                if matches!(self.turn.allowance, Allowance::Clicks(_))
                    && !self.turn.entered
                    && self.would_reverse()
                {
                    // Undo the move click by click so every client follows with ordinary events.
                    for click in self.turn.clicks.iter().rev().flatten().copied() {
                        let undo = click.inverse();
                        self.position.click(undo);
                        events.push(Event::Click {
                            seat: mover,
                            click: undo,
                            position: self.position,
                        });
                    }
                }
                self.end_turn(events);
            }
        }
        Ok(())
    }

    fn known_clicks(&self) -> Option<u8> {
        if self.is_puzzle() {
            // No clicks rule: a puzzle's move lasts until its finish.
            return None;
        }
        match self.turn.allowance {
            Allowance::Clicks(_) => Some(self.turn.state.allowed),
            Allowance::Place(_) => Some(0),
            Allowance::DieOrThree | Allowance::Die => None,
        }
    }

    fn turn_event(&self) -> Event {
        Event::Turn {
            seat: self.mover(),
            clicks: self.known_clicks(),
            round: self.turn.round,
        }
    }

    fn check_mover(&self, seat: Seat) -> Result<(), ActionError> {
        if seat != self.mover() {
            return Err(ActionError::NotYourTurn(self.mover()));
        }
        Ok(())
    }

    fn check_clicking(&self) -> Result<(), ActionError> {
        match self.turn.allowance {
            Allowance::Clicks(_) => Ok(()),
            Allowance::DieOrThree => Err(ActionError::Phase(
                "choose first: throw the die or take three clicks",
            )),
            Allowance::Die => Err(ActionError::Phase("throw the die first")),
            Allowance::Place(_) => Err(ActionError::Phase(
                "this turn is a placement: place a piece",
            )),
        }
    }

    /// The move's last click may not leave a reversing position, unless building could still
    /// change it (then ending the turn is what is checked).
    fn check_last_click(&self, click: Click, state: MoveState) -> Result<(), ActionError> {
        if state.left() != 1 {
            return Ok(());
        }
        let after = self.position.clicked(click);
        let mut moved = state;
        moved.advance(click);
        self.rules.end_check(self, &after, moved.candidates)?;
        if !reverses(self.last_move.as_ref(), &after)
            || !self
                .rules
                .reversal_applies(self.last_move.is_some_and(|m| m.entered), self.turn.entered)
        {
            return Ok(());
        }
        if self.rules.mechanics().building {
            let own = self.position.of(self.seats[self.turn.mover].colour);
            let eligible = own & !after.occupied();
            if !eligible.is_empty() {
                return Ok(());
            }
        }
        Err(RuleError::Reversal.into())
    }

    fn click(
        &mut self,
        seat: Seat,
        click: Click,
        piece: Option<Piece>,
        now: Millis,
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        self.check_mover(seat)?;
        self.check_clicking()?;
        let colour = self.seats[self.turn.mover].colour;
        let own = self.position.of(colour);
        let mut state = self.turn.state;
        if let Some(piece) = piece {
            if piece.colour() != colour {
                return Err(RuleError::NotYourPiece(piece).into());
            }
            state.name_piece(&self.position, own, piece)?;
        }
        self.rules.check_click(self, click)?;
        state.check(own, click)?;
        self.check_last_click(click, state)?;

        let before = self.position;
        self.position.click(click);
        state.advance(click);
        if let Some(slot) = self.turn.clicks.get_mut((state.used - 1) as usize) {
            *slot = Some(click);
        }
        self.turn.state = state;
        let rules = self.rules;
        rules.after_click(self, &before, click);
        events.push(Event::Click {
            seat,
            click,
            position: self.position,
        });
        if self.turn.state.allowed > state.allowed {
            // A hop (Lepus) lengthened the move: tell everyone the new number of clicks.
            events.push(self.turn_event());
        }
        let mechanics = self.rules.mechanics();
        if mechanics.building {
            self.turn.eligible = own & !self.position.occupied();
            events.push(Event::Eligible {
                slots: self.turn.eligible,
            });
        }
        if self.resolve(now, events) {
            return Ok(());
        }
        if self.turn.state.left() == 0 && !self.can_build() {
            self.end_turn(events);
        }
        Ok(())
    }

    fn can_build(&self) -> bool {
        self.rules.mechanics().building && !self.turn.eligible.is_empty()
    }

    fn place(
        &mut self,
        seat: Seat,
        slot: Slot,
        from: Option<Slot>,
        now: Millis,
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        self.check_mover(seat)?;
        let colour = self.seats[self.turn.mover].colour;
        if self.position.get(slot).is_some() {
            return Err(ActionError::BadPlace {
                slot,
                why: "is not empty",
            });
        }
        let placement_turn = match self.turn.allowance {
            Allowance::Place(rule) => {
                if !rule.allows(slot) {
                    return Err(ActionError::BadPlace {
                        slot,
                        why: match rule {
                            PlaceRule::TouchingEdge => "does not touch the edge of the board",
                            _ => "is not a slot you may enter on",
                        },
                    });
                }
                true
            }
            _ if self.rules.mechanics().building => {
                if !self.turn.eligible.contains(slot) {
                    return Err(ActionError::BadPlace {
                        slot,
                        why: "is not eligible: build only where your piece just left",
                    });
                }
                false
            }
            _ => return Err(ActionError::Phase("this game does not place pieces now")),
        };
        let on_board = self.position.count(colour);
        let piece = match from {
            None => {
                let number = self
                    .position
                    .next_number(colour)
                    .filter(|_| on_board < PIECES_PER_COLOUR as usize)
                    .ok_or(ActionError::Phase(
                        "all 20 of your pieces are on the board: name one to move (from)",
                    ))?;
                Piece::new(colour, number).expect("1..=20")
            }
            Some(from) => {
                if placement_turn || on_board < PIECES_PER_COLOUR as usize {
                    return Err(ActionError::Phase(
                        "you may move a piece only when all 20 are on the board",
                    ));
                }
                match self.position.get(from) {
                    Some(p) if p.colour() == colour => {
                        self.position.take(from);
                        self.turn.state.candidates.remove(from);
                        p
                    }
                    _ => {
                        return Err(ActionError::BadPlace {
                            slot: from,
                            why: "holds none of your pieces",
                        })
                    }
                }
            }
        };
        self.position.put(slot, piece);
        self.turn.eligible.remove(slot);
        self.turn.entered = true;
        events.push(Event::Place {
            seat,
            slot,
            piece,
            from,
            position: self.position,
        });
        if self.resolve(now, events) {
            return Ok(());
        }
        if placement_turn || (self.turn.state.left() == 0 && self.turn.eligible.is_empty()) {
            self.end_turn(events);
        }
        Ok(())
    }

    fn claim(
        &mut self,
        seat: Seat,
        now: Millis,
        events: &mut Vec<Event>,
    ) -> Result<(), ActionError> {
        let colour = self.colour_of(seat).ok_or(ActionError::NoSuchSeat(seat))?;
        let Some(i) = self
            .claims
            .iter()
            .position(|c| c.colour == colour && now <= c.until)
        else {
            return Err(ActionError::NothingToClaim);
        };
        self.claims.remove(i);
        events.push(Event::Claim { seat, ok: true });
        self.finish(Some(self.winner_for(colour)), events);
        Ok(())
    }

    /// Resolves what the last change caused (chains, captures, goals). Returns true if the
    /// turn or the game ended.
    fn resolve(&mut self, now: Millis, events: &mut Vec<Event>) -> bool {
        let mechanics = self.rules.mechanics();
        let mover = self.seats[self.turn.mover];
        if mechanics.chains {
            let mask = self.chain_mask();
            let made = mask & !self.chains_before;
            self.chains_before = mask;
            if mask & (1 << mover.colour as u8) != 0 {
                events.push(Event::Chain {
                    colour: mover.colour,
                    claim_until: None,
                });
                self.finish(Some(self.winner_for(mover.colour)), events);
                return true;
            }
            for colour in Colour::ALL {
                if made & (1 << colour as u8) == 0 {
                    continue;
                }
                match self.options.claim_window {
                    ClaimWindow::Auto => {
                        events.push(Event::Chain {
                            colour,
                            claim_until: None,
                        });
                        self.finish(Some(self.winner_for(colour)), events);
                        return true;
                    }
                    ClaimWindow::Millis(ms) => {
                        let until = now.saturating_add(ms);
                        self.claims.retain(|c| c.colour != colour);
                        self.claims.push(OpenClaim { colour, until });
                        events.push(Event::Chain {
                            colour,
                            claim_until: Some(until),
                        });
                    }
                }
            }
        }
        if mechanics.captures && self.capture(events) {
            return true;
        }
        self.check_goal(false, events)
    }

    /// Ends the game if a goal is reached: one colour wins, several at once draw.
    fn check_goal(&mut self, turn_end: bool, events: &mut Vec<Event>) -> bool {
        let reached = self.rules.goal(self, turn_end);
        if reached.is_empty() {
            return false;
        }
        let rules = self.rules;
        let winner = rules.on_goal(self, &reached);
        self.finish(winner, events);
        true
    }

    /// Orion captures for the mover. Returns true if the turn (or game) ended.
    fn capture(&mut self, events: &mut Vec<Event>) -> bool {
        let mover = self.seats[self.turn.mover];
        let capture = fence::evaluate(&self.position, mover.colour);
        if !capture.slots.is_empty() {
            for slot in capture.slots {
                self.position.take(slot);
            }
            let points = capture.slots.len() as u32;
            self.scores[self.turn.mover] += points;
            events.push(Event::Capture {
                seat: mover.seat,
                slots: capture.slots,
                points,
                position: self.position,
            });
        }
        if capture.whole_board {
            self.finish_by_score(events);
            return true;
        }
        if !capture.slots.is_empty() {
            self.end_turn(events);
            return true;
        }
        false
    }

    /// Ends the game: the single highest score wins, a tie at the top draws.
    pub(crate) fn finish_by_score(&mut self, events: &mut Vec<Event>) {
        let winner = self.score_leader();
        self.finish(winner, events);
    }

    /// The seat alone at the top of the scores, if one is.
    pub(crate) fn score_leader(&self) -> Option<Winner> {
        let best = self.scores.iter().copied().max().unwrap_or(0);
        let leaders: Vec<usize> = (0..self.seats.len())
            .filter(|&i| self.scores[i] == best)
            .collect();
        match leaders.as_slice() {
            [one] => Some(Winner::Seat(self.seats[*one].seat)),
            _ => None,
        }
    }

    /// The winner when `colour` wins: its seat, or its team.
    pub(crate) fn winner_for(&self, colour: Colour) -> Winner {
        let team: Vec<Seat> = self
            .seats
            .iter()
            .filter(|s| s.colour == colour)
            .map(|s| s.seat)
            .collect();
        match team.as_slice() {
            [a, b] => Winner::Team(*a, *b),
            [a, ..] => Winner::Seat(*a),
            [] => Winner::Seat(Seat::S),
        }
    }

    /// Bit per colour: which colours in play hold a chain from their seat's edge.
    fn chain_mask(&self) -> u8 {
        let mut mask = 0;
        for s in &self.seats {
            if mask & (1 << s.colour as u8) == 0
                && has_chain(self.position.of(s.colour), s.seat.edge())
            {
                mask |= 1 << s.colour as u8;
            }
        }
        mask
    }

    pub(crate) fn finish(&mut self, winner: Option<Winner>, events: &mut Vec<Event>) {
        let rules = self.rules;
        rules.on_finish(self, winner);
        let outcome = Outcome {
            winner,
            scores: self.scores(),
            reveals: self.reveals(),
        };
        self.outcome = Some(outcome.clone());
        self.claims.clear();
        events.push(Event::Over { outcome });
    }

    pub(crate) fn end_turn(&mut self, events: &mut Vec<Event>) {
        if self.check_goal(true, events) {
            return;
        }
        self.last_move = Some(LastMove {
            before: self.turn.before,
            changed: self.turn.before != self.position,
            entered: self.turn.entered,
        });
        // The next seat still in play; a round begins each time the first mover's turn comes.
        let mut next = self.turn.mover;
        let mut round = self.turn.round;
        for _ in 0..self.seats.len() {
            next = (next + 1) % self.seats.len();
            if next == self.first {
                round += 1;
            }
            if !self.memory.out[next] {
                break;
            }
        }
        self.begin_turn(next, round);
        events.push(self.turn_event());
        if self.rules.mechanics().captures {
            // Fences count at the mover's turn, from its start.
            self.capture(events);
        }
    }

    fn begin_turn(&mut self, mover: usize, round: u32) {
        let seat = self.seats[mover].seat;
        let allowance = self.rules.turn_allowance(self, seat, round);
        let colour = self.seats[mover].colour;
        let allowed = match allowance {
            Allowance::Clicks(n) => n,
            _ => 0,
        };
        let mut state = MoveState::new(allowed, self.position.of(colour));
        state.narrows = self.rules.same_piece();
        self.turn = Turn {
            mover,
            round,
            allowance,
            state,
            eligible: SlotSet::EMPTY,
            entered: false,
            before: self.position,
            clicks: [None; MAX_MOVE_CLICKS],
        };
        let rules = self.rules;
        rules.begin_turn(self);
    }
}
