//! A game of Orbs from its options to its end: the opening, whose turn it is (passing over
//! players who cannot move), the move rule with every element meeting, players going out,
//! the win and every draw (no capture possible, a double wipe-out, agreement, 100 quiet
//! moves, nobody able to move).

use crate::hole::Hole;
use crate::holeset::HoleSet;
use crate::moves::Move;
use crate::orb::{Clash, Element, Orb};
use crate::position::Position;
use crate::seat::{Colour, Seat};
use std::fmt;
use thiserror::Error;

/// After this many moves in a row with no orb removed the game is drawn (our choice: the
/// seed has no such rule, but a chase on a board with holes can last for ever).
pub const QUIET_MOVES: u32 = 100;

/// The classic opening, by rows of a point from the centre outward, each left to right as
/// its owner faces the centre: 3 fire, 3 water, 2 earth, 2 air.
pub const CLASSIC_ROWS: [&[Element]; 4] = {
    use Element::{Air as A, Earth as E, Fire as F, Water as W};
    [&[F, W, W, F], &[E, F, E], &[A, A], &[W]]
};

/// How the orbs start.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum Opening {
    /// Every player fills his point with [`CLASSIC_ROWS`].
    #[default]
    Classic,
    /// This position (variants, handicaps, rare elements).
    Position(Box<Position>),
}

/// The room's options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// 2 to 6.
    pub players: u8,
    /// Where the orbs start.
    pub opening: Opening,
    /// Each player's orb on the tip of his own point becomes a void orb.
    pub void: bool,
    /// Holes out of play: no orb may stand on or enter them.
    pub holes: HoleSet,
    /// With 4 or 6 players, opposite seats are partners.
    pub teams: bool,
    /// Who moves first; `None` for the first seat in turn order (`S`, or `SW` with four).
    pub first: Option<Seat>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            players: 2,
            opening: Opening::Classic,
            void: false,
            holes: HoleSet::EMPTY,
            teams: false,
            first: None,
        }
    }
}

/// Why a game cannot start with these options.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SetupError {
    /// Outside 2–6 players.
    #[error("Orbs is for 2 to 6 players, not {0}")]
    Players(u8),
    /// Teams with a player count that has no opposite pairs.
    #[error("teams need 4 or 6 players, not {0}")]
    Teams(u8),
    /// An orb of a colour nobody plays.
    #[error("{hole} holds a {colour} orb, but {colour} does not play with {players} players")]
    Colour {
        /// Where the orb is.
        hole: Hole,
        /// Its colour.
        colour: Colour,
        /// The players in the game.
        players: u8,
    },
    /// An orb on a hole out of play.
    #[error("{0} is out of play but holds an orb")]
    OutOfPlay(Hole),
    /// The first seat does not play.
    #[error("seat {seat} does not play with {players} players")]
    FirstSeat {
        /// The seat asked for.
        seat: Seat,
        /// The players in the game.
        players: u8,
    },
    /// Nobody has an orb.
    #[error("nobody has an orb")]
    NoOrbs,
}

/// Who won.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Winner {
    /// One player, the last with orbs.
    Seat(Seat),
    /// A team of partners (the first seat in turn order first), the last with orbs.
    Team(Seat, Seat),
}

impl Winner {
    /// Whether `seat` is among the winners.
    pub fn includes(self, seat: Seat) -> bool {
        match self {
            Winner::Seat(s) => s == seat,
            Winner::Team(a, b) => a == seat || b == seat,
        }
    }
}

/// Why a game was drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Draw {
    /// No remaining orb can ever remove an enemy orb: every orb left is of one element
    /// (not void).
    NoCapture,
    /// The last players (or teams) lost their last orbs in the same move.
    WipedOut,
    /// Every remaining player agreed.
    Agreed,
    /// [`QUIET_MOVES`] moves in a row removed no orb.
    Quiet,
    /// Nobody left can move (our choice: otherwise everyone would pass for ever).
    Stuck,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The last player or team with orbs.
    Win(Winner),
    /// A draw, and why.
    Draw(Draw),
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win(Winner::Seat(s)) => write!(f, "{s} wins"),
            Outcome::Win(Winner::Team(a, b)) => write!(f, "{a} and {b} win"),
            Outcome::Draw(Draw::NoCapture) => f.write_str("draw: no orb can remove another"),
            Outcome::Draw(Draw::WipedOut) => f.write_str("draw: the last orbs fell together"),
            Outcome::Draw(Draw::Agreed) => f.write_str("draw by agreement"),
            Outcome::Draw(Draw::Quiet) => {
                write!(f, "draw: {QUIET_MOVES} moves without a removal")
            }
            Outcome::Draw(Draw::Stuck) => f.write_str("draw: nobody can move"),
        }
    }
}

/// Why a move is illegal, as the player is told.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum Illegal {
    /// The game has ended.
    #[error("the game is over")]
    GameOver,
    /// The two holes are not neighbours.
    #[error("{to} is not next to {from}")]
    NotAdjacent {
        /// Where the orb stands.
        from: Hole,
        /// Where it was to go.
        to: Hole,
    },
    /// The target is out of play.
    #[error("{0} is out of play")]
    OutOfPlay(Hole),
    /// Nothing to move.
    #[error("there is no orb on {0}")]
    NoOrb(Hole),
    /// Another player's orb.
    #[error("the orb on {hole} is {colour}, not yours")]
    NotYours {
        /// Where it stands.
        hole: Hole,
        /// Whose it is.
        colour: Colour,
    },
    /// The target holds the mover's own orb.
    #[error("{0} holds your own orb")]
    OwnOrb(Hole),
    /// The target holds a partner's orb.
    #[error("{0} holds your partner's orb")]
    PartnersOrb(Hole),
    /// The target holds an enemy orb of the same element.
    #[error("your {0} orb cannot take a {0} orb")]
    SameElement(Element),
}

/// An illegal move and why: `d2-e6: your fire orb cannot take a fire orb`.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{mv}: {reason}")]
pub struct MoveError {
    /// The move tried.
    pub mv: Move,
    /// Why it is illegal.
    pub reason: Illegal,
}

/// Why a draw offer or acceptance was refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum DrawError {
    /// The game has ended.
    #[error("the game is over")]
    GameOver,
    /// The seat is not in the game.
    #[error("seat {0} does not play in this game")]
    NotPlaying(Seat),
    /// The seat has no orbs left.
    #[error("seat {0} is out and has no say")]
    Out(Seat),
    /// An offer already stands.
    #[error("a draw is already offered: accept it or play on")]
    AlreadyOffered,
    /// No offer to accept.
    #[error("no draw has been offered")]
    NoOffer,
    /// The seat has already agreed.
    #[error("seat {0} has already agreed to the draw")]
    AlreadyAgreed(Seat),
}

/// What one move did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Effect {
    /// Who moved.
    pub seat: Seat,
    /// The move.
    pub mv: Move,
    /// The holes whose orbs were removed (none, the target, the origin, or both).
    pub removed: HoleSet,
    /// Players who lost their last orb in this move.
    pub out: Vec<Seat>,
    /// Players passed over after this move because none of their orbs could move, in turn
    /// order: an explicit event so that a table can say why a seat was skipped.
    pub passed: Vec<Seat>,
    /// The end of the game, if this move ended it.
    pub outcome: Option<Outcome>,
}

/// What a legal move does to the orbs it touches.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Step {
    /// Into an empty hole.
    Empty,
    /// The mover removes the orb there and takes its hole.
    Takes,
    /// Both orbs are removed.
    Both,
    /// The mover is removed; the orb there stays.
    Loses,
}

/// A game of Orbs. It starts only through [`Game::new`], so every `Game` is one the rules
/// allow; [`Game::play`] keeps it so.
#[derive(Clone, Debug)]
pub struct Game {
    /// The seats in turn order; the k-th plays colour k.
    seats: &'static [Seat],
    /// Whether opposite seats are partners.
    teams: bool,
    /// Holes out of play.
    holes: HoleSet,
    /// The orbs.
    position: Position,
    /// Index into `seats` of the player to move (meaningless once the game is over).
    mover: usize,
    /// The last move and who played it.
    last: Option<(Seat, Move)>,
    /// Moves since an orb was last removed, for the quiet-moves draw.
    quiet: u32,
    /// Moves played in all.
    played: u32,
    /// Seats (bit = seat number) that agree to the standing draw offer; 0 when none stands.
    agreed: u8,
    /// How the game ended.
    outcome: Option<Outcome>,
}

impl Game {
    /// A new game, or why these options do not make one. If the first player cannot move
    /// he is passed over at once (no event: nothing has happened yet).
    pub fn new(options: Options) -> Result<Game, SetupError> {
        let seats =
            Seat::for_players(options.players).ok_or(SetupError::Players(options.players))?;
        if options.teams && !matches!(options.players, 4 | 6) {
            return Err(SetupError::Teams(options.players));
        }
        let mut position = match &options.opening {
            Opening::Classic => classic(seats),
            Opening::Position(p) => (**p).clone(),
        };
        for (hole, orb) in position.clone().orbs() {
            let Some(seat) = seats.get(orb.colour as usize) else {
                return Err(SetupError::Colour {
                    hole,
                    colour: orb.colour,
                    players: options.players,
                });
            };
            if options.holes.contains(hole) {
                return Err(SetupError::OutOfPlay(hole));
            }
            if options.void && hole == seat.tip() {
                position.set(hole, Some(Orb::new(orb.colour, Element::Void)));
            }
        }
        if position.is_empty() {
            return Err(SetupError::NoOrbs);
        }
        let mover = match options.first {
            None => 0,
            Some(seat) => seats
                .iter()
                .position(|&s| s == seat)
                .ok_or(SetupError::FirstSeat {
                    seat,
                    players: options.players,
                })?,
        };
        let mut game = Game {
            seats,
            teams: options.teams,
            holes: options.holes,
            position,
            mover,
            last: None,
            quiet: 0,
            played: 0,
            agreed: 0,
            outcome: None,
        };
        // The first seat itself is tried first, so start the search one seat before it.
        game.mover = (mover + seats.len() - 1) % seats.len();
        game.settle();
        Ok(game)
    }

    /// The seats in turn order.
    pub fn seats(&self) -> &'static [Seat] {
        self.seats
    }

    /// The colour `seat` plays, if it plays.
    pub fn colour_of(&self, seat: Seat) -> Option<Colour> {
        self.seats
            .iter()
            .position(|&s| s == seat)
            .map(Colour::of_turn)
    }

    /// The seat that plays `colour`, if anyone does.
    pub fn seat_of(&self, colour: Colour) -> Option<Seat> {
        self.seats.get(colour as usize).copied()
    }

    /// Whether opposite seats are partners.
    pub fn teams(&self) -> bool {
        self.teams
    }

    /// The holes out of play.
    pub fn holes_out_of_play(&self) -> HoleSet {
        self.holes
    }

    /// The orbs.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// Whose turn it is; `None` once the game is over.
    pub fn mover(&self) -> Option<Seat> {
        self.outcome.is_none().then(|| self.seats[self.mover])
    }

    /// The last move played and who played it.
    pub fn last_move(&self) -> Option<(Seat, Move)> {
        self.last
    }

    /// Moves played so far.
    pub fn moves_played(&self) -> u32 {
        self.played
    }

    /// Moves in a row without a removal, towards the [`QUIET_MOVES`] draw.
    pub fn quiet_moves(&self) -> u32 {
        self.quiet
    }

    /// How the game ended, once it has.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// Whether `seat` has no orbs left (or does not play).
    pub fn is_out(&self, seat: Seat) -> bool {
        self.colour_of(seat)
            .is_none_or(|c| self.position.count(c) == 0)
    }

    /// The players with no orbs left, in turn order.
    pub fn out(&self) -> Vec<Seat> {
        self.seats
            .iter()
            .copied()
            .filter(|&s| self.is_out(s))
            .collect()
    }

    /// Whether the owners of `a` and `b` are on one side: the same player, or partners.
    pub fn allied(&self, a: Colour, b: Colour) -> bool {
        match (self.seat_of(a), self.seat_of(b)) {
            (Some(x), Some(y)) => self.side(x) == self.side(y),
            _ => a == b,
        }
    }

    /// The side a seat plays for: itself, or with teams the first of the pair in
    /// [`Seat::ALL`] order.
    fn side(&self, seat: Seat) -> Seat {
        if self.teams {
            seat.min(seat.opposite())
        } else {
            seat
        }
    }

    /// The legal moves of the player to move (none once the game is over).
    pub fn legal_moves(&self) -> Vec<Move> {
        match self.mover() {
            Some(seat) => self.moves_of(seat),
            None => Vec::new(),
        }
    }

    /// The moves `seat`'s orbs could make if it were his turn.
    fn moves_of(&self, seat: Seat) -> Vec<Move> {
        let Some(colour) = self.colour_of(seat) else {
            return Vec::new();
        };
        let mut moves = Vec::new();
        for from in self.position.of(colour) {
            for to in from.neighbours() {
                let mv = Move::new(from, to);
                if self.judge(colour, mv).is_ok() {
                    moves.push(mv);
                }
            }
        }
        moves
    }

    /// Whether `seat` has any legal move.
    fn can_move(&self, seat: Seat) -> bool {
        let Some(colour) = self.colour_of(seat) else {
            return false;
        };
        self.position.of(colour).into_iter().any(|from| {
            from.neighbours()
                .any(|to| self.judge(colour, Move::new(from, to)).is_ok())
        })
    }

    /// What `mv` by `colour` would do, or why it is illegal.
    fn judge(&self, colour: Colour, mv: Move) -> Result<Step, Illegal> {
        if !mv.from.is_adjacent(mv.to) {
            return Err(Illegal::NotAdjacent {
                from: mv.from,
                to: mv.to,
            });
        }
        if self.holes.contains(mv.to) {
            return Err(Illegal::OutOfPlay(mv.to));
        }
        let orb = self.position.get(mv.from).ok_or(Illegal::NoOrb(mv.from))?;
        if orb.colour != colour {
            return Err(Illegal::NotYours {
                hole: mv.from,
                colour: orb.colour,
            });
        }
        let Some(target) = self.position.get(mv.to) else {
            return Ok(Step::Empty);
        };
        if target.colour == colour {
            return Err(Illegal::OwnOrb(mv.to));
        }
        if self.allied(colour, target.colour) {
            return Err(Illegal::PartnersOrb(mv.to));
        }
        match orb.element.clash(target.element) {
            Clash::Illegal => Err(Illegal::SameElement(orb.element)),
            Clash::Both => Ok(Step::Both),
            Clash::MoverWins => Ok(Step::Takes),
            Clash::DefenderWins => Ok(Step::Loses),
        }
    }

    /// Checks `mv` for the player to move without playing it.
    pub fn check(&self, mv: Move) -> Result<(), MoveError> {
        self.judge_mover(mv).map(|_| ())
    }

    fn judge_mover(&self, mv: Move) -> Result<(Seat, Step), MoveError> {
        let err = |reason| MoveError { mv, reason };
        let seat = self.mover().ok_or_else(|| err(Illegal::GameOver))?;
        let colour = Colour::of_turn(self.mover);
        let step = self.judge(colour, mv).map_err(err)?;
        Ok((seat, step))
    }

    /// Plays `mv` for the player to move. A standing draw offer lapses.
    pub fn play(&mut self, mv: Move) -> Result<Effect, MoveError> {
        let (seat, step) = self.judge_mover(mv)?;
        let before: Vec<bool> = self.seats.iter().map(|&s| self.is_out(s)).collect();
        let mut removed = HoleSet::EMPTY;
        let orb = self.position.set(mv.from, None);
        match step {
            Step::Empty => {
                self.position.set(mv.to, orb);
            }
            Step::Takes => {
                removed.insert(mv.to);
                self.position.set(mv.to, orb);
            }
            Step::Both => {
                self.position.set(mv.to, None);
                removed.insert(mv.from);
                removed.insert(mv.to);
            }
            Step::Loses => removed.insert(mv.from),
        }
        self.last = Some((seat, mv));
        self.played += 1;
        self.quiet = if removed.is_empty() {
            self.quiet + 1
        } else {
            0
        };
        self.agreed = 0;
        let out = self
            .seats
            .iter()
            .zip(before)
            .filter(|&(&s, was_out)| !was_out && self.is_out(s))
            .map(|(&s, _)| s)
            .collect();
        let passed = self.settle();
        Ok(Effect {
            seat,
            mv,
            removed,
            out,
            passed,
            outcome: self.outcome,
        })
    }

    /// The player to move gives up his turn without moving: what a server does when his
    /// turn clock runs out (the rules themselves pass only a player who cannot move). It
    /// removes nothing, so it counts towards the [`QUIET_MOVES`] draw, and a standing draw
    /// offer lapses as on a move. Returns the players then passed over because they cannot
    /// move, in turn order.
    pub fn pass(&mut self) -> Result<Vec<Seat>, Illegal> {
        if self.outcome.is_some() {
            return Err(Illegal::GameOver);
        }
        self.quiet += 1;
        self.agreed = 0;
        Ok(self.settle())
    }

    /// After a move (or at the start): ends the game if it is over, else hands the turn to
    /// the next seat clockwise that can move, returning those passed over.
    fn settle(&mut self) -> Vec<Seat> {
        let mut sides: Vec<Seat> = Vec::new();
        for &s in self.seats {
            if !self.is_out(s) && !sides.contains(&self.side(s)) {
                sides.push(self.side(s));
            }
        }
        self.outcome = match sides.as_slice() {
            [] => Some(Outcome::Draw(Draw::WipedOut)),
            [one] => Some(Outcome::Win(if self.teams {
                let (a, b) = (*one, one.opposite());
                let first = |x: Seat| self.seats.iter().position(|&s| s == x);
                if first(a) <= first(b) {
                    Winner::Team(a, b)
                } else {
                    Winner::Team(b, a)
                }
            } else {
                Winner::Seat(*one)
            })),
            _ if self.no_capture_possible() => Some(Outcome::Draw(Draw::NoCapture)),
            _ if self.quiet >= QUIET_MOVES => Some(Outcome::Draw(Draw::Quiet)),
            _ => None,
        };
        if self.outcome.is_some() {
            return Vec::new();
        }
        let n = self.seats.len();
        let mut passed = Vec::new();
        for step in 1..=n {
            let i = (self.mover + step) % n;
            let seat = self.seats[i];
            if self.is_out(seat) {
                continue;
            }
            if self.can_move(seat) {
                self.mover = i;
                return passed;
            }
            passed.push(seat);
        }
        self.outcome = Some(Outcome::Draw(Draw::Stuck));
        Vec::new()
    }

    /// Whether every orb left is of one element, not void: then no orb can ever remove an
    /// enemy's (with two sides left, every orb has an enemy).
    fn no_capture_possible(&self) -> bool {
        let mut elements = self.position.orbs().map(|(_, o)| o.element);
        match elements.next() {
            None => true,
            Some(Element::Void) => false,
            Some(first) => elements.all(|e| e == first),
        }
    }

    /// `seat` offers a draw; it stands until the next move. Returns the outcome if that
    /// completes the agreement.
    pub fn offer_draw(&mut self, seat: Seat) -> Result<Option<Outcome>, DrawError> {
        self.may_agree(seat)?;
        if self.agreed != 0 {
            return Err(DrawError::AlreadyOffered);
        }
        Ok(self.agree(seat))
    }

    /// `seat` accepts the standing draw offer. Returns the outcome once every remaining
    /// player has agreed.
    pub fn accept_draw(&mut self, seat: Seat) -> Result<Option<Outcome>, DrawError> {
        self.may_agree(seat)?;
        if self.agreed == 0 {
            return Err(DrawError::NoOffer);
        }
        if self.agreed & (1 << seat as u8) != 0 {
            return Err(DrawError::AlreadyAgreed(seat));
        }
        Ok(self.agree(seat))
    }

    /// Whether a draw offer stands, and who has agreed to it.
    pub fn draw_agreed(&self) -> Vec<Seat> {
        self.seats
            .iter()
            .copied()
            .filter(|&s| self.agreed & (1 << s as u8) != 0)
            .collect()
    }

    fn may_agree(&self, seat: Seat) -> Result<(), DrawError> {
        if self.outcome.is_some() {
            return Err(DrawError::GameOver);
        }
        if self.colour_of(seat).is_none() {
            return Err(DrawError::NotPlaying(seat));
        }
        if self.is_out(seat) {
            return Err(DrawError::Out(seat));
        }
        Ok(())
    }

    fn agree(&mut self, seat: Seat) -> Option<Outcome> {
        self.agreed |= 1 << seat as u8;
        let all = self
            .seats
            .iter()
            .filter(|&&s| !self.is_out(s))
            .all(|&s| self.agreed & (1 << s as u8) != 0);
        if all {
            self.outcome = Some(Outcome::Draw(Draw::Agreed));
        }
        self.outcome
    }
}

/// The classic opening for these seats.
fn classic(seats: &[Seat]) -> Position {
    let mut p = Position::empty();
    for (i, seat) in seats.iter().enumerate() {
        let colour = Colour::of_turn(i);
        for (row, elements) in seat.point_rows().iter().zip(CLASSIC_ROWS) {
            for (&hole, &element) in row.iter().zip(elements) {
                p.set(hole, Some(Orb::new(colour, element)));
            }
        }
    }
    p
}
