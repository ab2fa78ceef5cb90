//! A game in progress, driven one action at a time. `Game::step` takes one action from one
//! seat with the caller's clock time and returns the events it caused (ORION.md section 4:
//! every click resolves at once — chains, claims, captures, building). Each game of the
//! booklet is a [`Rules`] value in `games/`; this folder holds what they share, one concept a
//! file:
//!
//! * `options` — the room's options; `allowance` — how a turn is used;
//! * `rules` — the variant trait; `action`, `event`, `error` — what goes in and out;
//! * `memory` — the typed slot a game keeps its own bookkeeping in (its type lives in the
//!   game's file, with any accessor for it: `Game::laps` in `games/auriga.rs`,
//!   `Game::secret` in `games/algol.rs`);
//! * `previous` — the last completed move;
//! * `turn` — the turn machine; `resolve` — chains, claims, captures, goals and the end;
//! * `query` — what a client may ask without changing anything (legal actions, the previous
//!   move, clicks left, open claims).
//!
//! This file holds the `Game` value, its setup and its small accessors.

mod action;
mod allowance;
mod error;
mod event;
mod memory;
mod options;
mod previous;
mod query;
mod resolve;
mod rules;
mod turn;

pub use action::Action;
pub use allowance::{Allowance, PlaceRule};
pub use error::{ActionError, SetupError};
pub use event::{Event, Millis, Outcome, Reveal, Winner};
pub use options::{ClaimWindow, Options, MAX_CLICKS, MAX_DIE_FACES};
pub use previous::{PreviousMove, MAX_MOVE_CLICKS};
pub use query::Claimable;
pub use rules::{Mechanics, PuzzleProgress, Rules};

use crate::board::SlotSet;
use crate::piece::Colour;
use crate::position::Position;
use crate::rules::Die;
use crate::seat::{Seat, SeatInfo};
use memory::MemorySlot;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use resolve::OpenClaim;
use std::any::Any;
use std::fmt;
use std::sync::Arc;
use turn::Turn;

/// A game in progress.
#[derive(Clone)]
pub struct Game {
    /// The game's rules.
    rules: &'static dyn Rules,
    /// The options it was created with. Shared (as are the seats and the die, which never
    /// change in play) so that a copy of a game — a room keeps one across each wait for its
    /// store — allocates no more than it must.
    options: Arc<Options>,
    /// Seats in turn order.
    seats: Arc<[SeatInfo]>,
    /// The board.
    position: Position,
    /// The turn in progress.
    pub(crate) turn: Turn,
    /// The previous completed move: for the no-reversal rule, and for clients to show.
    previous: Option<PreviousMove>,
    /// What the game's own file keeps beyond the board (see `memory`).
    memory: MemorySlot,
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
    die: Arc<Die>,
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
        let die = Arc::new(Die {
            faces: options.die.clone(),
        });
        let scores = vec![0; seats.len()];
        let mut game = Game {
            rules,
            options: Arc::new(options),
            seats: seats.into(),
            position,
            turn: Turn::before_start(position),
            previous: None,
            memory: MemorySlot::default(),
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

    /// Sets up a copy of a game that is played elsewhere and followed from its events (a
    /// client fed a room's events): as [`Game::from_position`], with `first` the seat that
    /// moved first (rounds begin with it; the room's `start` event names it, where a seeded
    /// toss chose it). The copy has no seed of the room's: it throws no die of its own, so feed
    /// it the room's throws with [`Game::step_roll`]; its [`Game::seed`] is 0.
    pub fn following(
        rules: &'static dyn Rules,
        options: Options,
        position: Position,
        first: Seat,
        mover: Seat,
        round: u32,
    ) -> Result<Game, SetupError> {
        let mut game = Game::new(rules, options, 0)?;
        let index = |game: &Game, seat| game.seat_index(seat).ok_or(SetupError::NoSuchSeat(seat));
        let (first, mover) = (index(&game, first)?, index(&game, mover)?);
        game.first = first;
        game.position = position;
        game.chains_before = game.chain_mask();
        game.begin_turn(mover, round.max(1));
        Ok(game)
    }

    /// A copy of the game holding only what `seat` may know: the other seats' hidden choices
    /// replaced by stand-ins ([`Rules::conceal`]), and the seed and the die's random source
    /// reset, so no later throw can be foretold. What a bot searches from; a copy's throws
    /// are its own, not the room's.
    pub fn seen_by(&self, seat: Seat) -> Game {
        let mut copy = self.clone();
        copy.seed = 0;
        copy.rng = ChaCha8Rng::seed_from_u64(0);
        let rules = copy.rules;
        rules.conceal(&mut copy, seat);
        copy
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
        self.seats.iter().any(|s| s.seat == seat) && !self.rules.out_of_play(self, seat)
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
        self.rules.reveals(self)
    }

    /// Where the piece being moved could be (the same-piece rule's candidates).
    pub fn candidates(&self) -> SlotSet {
        self.turn.state.candidates
    }

    /// The board when the turn in progress began (the next move's forbidden end, if this
    /// one changes the board).
    pub fn turn_start(&self) -> &Position {
        &self.turn.before
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
        self.forbidden() == Some(self.position)
    }

    /// A one-player puzzle's progress (clicks used, the booklet's target); `None` in a game.
    pub fn progress(&self) -> Option<PuzzleProgress> {
        self.rules.progress(self)
    }

    /// Whether this is a one-player puzzle rather than a game.
    pub fn is_puzzle(&self) -> bool {
        self.progress().is_some()
    }

    /// The memory of this game's own type `T`, if it has written one.
    pub(crate) fn memory<T: Any>(&self) -> Option<&T> {
        self.memory.get()
    }

    /// The memory of this game's own type `T`, made from its default on first use.
    pub(crate) fn memory_mut<T: Any + Send + Sync + Clone + Default>(&mut self) -> &mut T {
        self.memory.get_mut()
    }

    /// Index into [`Game::seats`] of `seat`.
    pub(crate) fn seat_index(&self, seat: Seat) -> Option<usize> {
        self.seats.iter().position(|s| s.seat == seat)
    }
}
