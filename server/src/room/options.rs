//! What a room is made with: the server's clocks and holds, and the game's own options, which
//! its game system checks and completes. Each bound is stated where it is defined.

use crate::clock::Millis;
use crate::protocol::{Code, Refusal};
use crate::system::{GameInfo, GameSystem};
use orion_protocol::RoomOptions as WireOptions;

/// Default seat hold for a disconnected player (PROTOCOL.md: 120 s).
pub const DEFAULT_SEAT_HOLD: Millis = 120_000;
/// Bounds on the clock options, in milliseconds.
pub const MAX_CLOCK: Millis = 24 * 3_600_000;
/// The days a correspondence room may give each turn.
pub const DAYS_PER_MOVE: [u8; 6] = [1, 2, 3, 5, 7, 14];
/// A day, in ms.
pub const DAY: Millis = 24 * 3_600_000;
/// Shortest turn clock: each expiry stores events, so a 1 ms clock would store a thousand a
/// second (and the clock is paused anyway while every seat is away).
pub const MIN_TURN_CLOCK: Millis = 1_000;

/// A room's options: the server's clocks and holds, and the game's own options (checked and
/// completed by its game system). On the wire and in the store they are one flat object, the
/// crate's `RoomOptions`.
#[derive(Clone, Debug, PartialEq)]
pub struct RoomOptions {
    /// Milliseconds per turn; on expiry the turn ends. `None`: no clock.
    pub turn_clock: Option<Millis>,
    /// Extra milliseconds per seat for the whole game, drawn once a turn clock runs out;
    /// when it runs out too, that seat loses the game. `None`: no bank.
    pub time_bank: Option<Millis>,
    /// How long a disconnected player's seat is held, in ms.
    pub seat_hold: Millis,
    /// A correspondence room: the days each turn may take (its seats are kept while their
    /// players are away; running out of days loses). `None`: a live room.
    pub days_per_move: Option<u8>,
    /// Whether the game is rated: `Some(true)` even with guests, `Some(false)` never,
    /// `None`: when every seat is a claimed account as it starts. Puzzles are never rated.
    pub rated: Option<bool>,
    /// The game's options as its system completed them (the server's own left out).
    pub game: WireOptions,
}

impl RoomOptions {
    /// Checks the `options` of a `create` (or a stored room's) for `game` of `system`,
    /// saying what was wrong. `players` (a quick match's count) overrides the options'.
    pub fn parse(
        options: Option<&WireOptions>,
        system: &dyn GameSystem,
        game: &GameInfo,
        players: Option<u8>,
    ) -> Result<RoomOptions, Refusal> {
        let bad = |m: String| Refusal::new(Code::BadRequest, format!("options: {m}"));
        let mut rest = options.cloned().unwrap_or_default();
        let turn_clock = rest.turn_clock.take().flatten();
        let time_bank = rest.time_bank.take().flatten();
        let seat_hold = rest.seat_hold.take().unwrap_or(DEFAULT_SEAT_HOLD);
        let rated = rest.rated.take().flatten();
        let days_per_move = rest.days_per_move.take();
        if let Some(days) = days_per_move {
            if game.solo {
                return Err(bad(format!(
                    "{} is a puzzle: puzzles are solved at one sitting, not by correspondence",
                    game.id
                )));
            }
            if !DAYS_PER_MOVE.contains(&days) {
                return Err(bad(format!(
                    "days_per_move must be one of {DAYS_PER_MOVE:?}, not {days}"
                )));
            }
            if turn_clock.is_some() || time_bank.is_some() {
                return Err(bad(
                    "a correspondence room's clock is its days_per_move: leave turn_clock and \
                     time_bank out"
                        .to_string(),
                ));
            }
        }
        if game.solo && rated == Some(true) {
            return Err(bad(format!(
                "{} is a puzzle: puzzles are not rated (their board is the fewest clicks)",
                game.id
            )));
        }
        if turn_clock.is_some_and(|ms| !(MIN_TURN_CLOCK..=MAX_CLOCK).contains(&ms)) {
            return Err(bad(format!(
                "turn_clock must be {MIN_TURN_CLOCK} to {MAX_CLOCK} ms"
            )));
        }
        if time_bank.is_some_and(|ms| !(1..=MAX_CLOCK).contains(&ms)) {
            return Err(bad(format!("time_bank must be 1 to {MAX_CLOCK} ms")));
        }
        if seat_hold > MAX_CLOCK {
            return Err(bad(format!("seat_hold must be at most {MAX_CLOCK} ms")));
        }
        if let Some(n) = players {
            rest.players = Some(Some(n));
        }
        Ok(RoomOptions {
            turn_clock,
            time_bank,
            seat_hold,
            days_per_move,
            rated,
            game: system.options(game, rest)?,
        })
    }

    /// The options as one object, as clients are shown them and the store keeps them.
    pub fn to_wire(&self) -> WireOptions {
        WireOptions {
            turn_clock: Some(self.turn_clock),
            time_bank: Some(self.time_bank),
            seat_hold: Some(self.seat_hold),
            days_per_move: self.days_per_move,
            rated: Some(self.rated),
            ..self.game.clone()
        }
    }

    /// A correspondence room's time for one turn, in ms (`None`: a live room).
    pub fn days(&self) -> Option<Millis> {
        self.days_per_move.map(|d| Millis::from(d) * DAY)
    }
}
