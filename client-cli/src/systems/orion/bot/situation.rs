//! What an ORION bot knows when it must act ([`Situation`]): the board, the turn, the
//! same-piece rule's state and the bot's copy of the game, which judges every rule a game adds;
//! made from a room followed over the wire ([`situation`]) or a game seen whole
//! ([`situation_of`]: self-play, tests). It answers what is legal now.

use crate::systems::orion::room::RoomState;
use orion_engine::{
    Action, Allowance, Click, Game, MoveState, Piece, PlaceRule, Position, Rules, Seat, SeatInfo,
    Slot, SlotSet, PIECES_PER_COLOUR,
};

/// What a bot knows when it must act: everything the rules need to tell legal from illegal.
#[derive(Clone)]
pub struct Situation {
    /// The game.
    pub rules: &'static dyn Rules,
    /// Every seat in play, with its colour.
    pub seats: Vec<SeatInfo>,
    /// The bot's seat and colour.
    pub me: SeatInfo,
    /// The board.
    pub position: Position,
    /// How the turn is to be used (with a thrown die's clicks as `Clicks`).
    pub allowance: Allowance,
    /// The same-piece rule's state of the move in progress.
    pub moving: MoveState,
    /// Slots the bot may build on now.
    pub eligible: SlotSet,
    /// The position the move may not end on (no-reversal rule).
    pub forbidden: Option<Position>,
    /// The game as the engine sees it now (a copy kept in step over the network, the game
    /// itself in self-play): the judge of every rule a game adds. `None` when the bot's copy
    /// has lost step; then only the basic rules are checked.
    pub game: Option<Game>,
}

impl Situation {
    pub(super) fn own(&self, p: &Position) -> SlotSet {
        p.of(self.me.colour)
    }

    pub(super) fn building(&self) -> bool {
        self.rules.mechanics().building
    }

    pub(super) fn supply_left(&self) -> bool {
        self.position.count(self.me.colour) < PIECES_PER_COLOUR as usize
    }

    /// Whether the turn may end now.
    pub fn may_end(&self) -> bool {
        if self.forbidden == Some(self.position) {
            return false;
        }
        let basic = self.moving.used > 0 || self.rules.may_pass();
        basic && self.game.as_ref().is_none_or(|g| self.ends(g))
    }

    /// Whether the engine lets the bot end its move in `game` now.
    fn ends(&self, game: &Game) -> bool {
        game.clone().step(self.me.seat, Action::EndTurn, 0).is_ok()
    }

    /// The clicks the copy has in hand beyond the room's (its die throws the most), so the
    /// room's count ends the move first: `Some(clicks left)` then, else `None`.
    pub(super) fn cap(&self) -> Option<u8> {
        let g = self.game.as_ref()?;
        let (allowed, used) = g.clicks();
        (allowed.unwrap_or(0).saturating_sub(used) > self.moving.left()).then(|| self.moving.left())
    }

    /// Legal clicks now (colour, same-piece, clicks rules, the last click's no-reversal, and
    /// every rule of the game), each leaving a move that can still end legally.
    pub(super) fn legal_clicks(&self) -> Vec<Click> {
        let own = self.own(&self.position);
        let mut budget = COMPLETION_BUDGET;
        Click::ALL
            .iter()
            .copied()
            .filter(|&c| self.moving.check(own, c).is_ok())
            .filter(|&c| !self.last_click_reverses(&self.position, self.moving, c))
            .filter(|&c| match &self.game {
                None => true,
                Some(g) => {
                    let mut next = g.clone();
                    let cap = self.cap().map(|n| n.saturating_sub(1));
                    next.step(
                        self.me.seat,
                        Action::Click {
                            click: c,
                            piece: None,
                        },
                        0,
                    )
                    .is_ok()
                        && self.can_finish(&next, cap, &mut budget)
                }
            })
            .collect()
    }

    /// Whether the move in `game` can still end legally (a knight that dipped must climb back
    /// in Draco): it has ended, or may end now, or some click leads on to an end. `cap` is
    /// the room's count of clicks left when the copy's is larger. Searching stops when
    /// `budget` runs out, and then says yes.
    fn can_finish(&self, game: &Game, cap: Option<u8>, budget: &mut u32) -> bool {
        let me = self.me.seat;
        if game.outcome().is_some() || game.mover() != me {
            return true;
        }
        if *budget == 0 {
            return true;
        }
        *budget -= 1;
        let forbidden = self.forbidden == Some(*game.position());
        if !forbidden && self.ends(game) {
            return true;
        }
        if cap == Some(0) {
            return false;
        }
        Click::ALL.iter().any(|&click| {
            if game.check_click(me, click).is_err() {
                return false;
            }
            let mut next = game.clone();
            next.step(me, Action::Click { click, piece: None }, 0)
                .is_ok()
                && self.can_finish(&next, cap.map(|n| n.saturating_sub(1)), budget)
        })
    }

    /// Challenges the engine would take now (Algol): the others' men in line with the bot's.
    pub(super) fn challenges(&self) -> Vec<Piece> {
        let Some(g) = &self.game else {
            return Vec::new();
        };
        let own = self.own(&self.position);
        let reach = own
            .into_iter()
            .fold(SlotSet::EMPTY, |set, s| set | s.in_line());
        (reach & !own & self.position.occupied())
            .into_iter()
            .filter_map(|s| self.position.get(s))
            .filter(|&piece| {
                g.clone()
                    .step(self.me.seat, Action::Challenge { piece }, 0)
                    .is_ok()
            })
            .collect()
    }

    /// Mirrors the engine: the move's last click may not end on the forbidden position,
    /// unless building could still change it.
    pub(super) fn last_click_reverses(
        &self,
        position: &Position,
        state: MoveState,
        click: Click,
    ) -> bool {
        if state.left() != 1 {
            return false;
        }
        let after = position.clicked(click);
        if self.forbidden != Some(after) {
            return false;
        }
        !(self.building() && self.own(position).intersects(!after.occupied()))
    }

    pub(super) fn place_slots(&self, rule: PlaceRule) -> Vec<Slot> {
        let empty = !self.position.occupied() & SlotSet::FULL;
        empty.into_iter().filter(|&s| rule.allows(s)).collect()
    }
}

/// Positions looked at, at most, to tell whether a move can still end legally.
const COMPLETION_BUDGET: u32 = 400;

/// The situation of `seat` in a game the bot can see whole (self-play, tests): everything
/// from the engine's query API (another seat than the mover's: to choose a secret).
pub fn situation_of(game: &Game, seat: Seat) -> Situation {
    let me = game
        .seats()
        .iter()
        .copied()
        .find(|s| s.seat == seat)
        .unwrap_or(SeatInfo {
            seat,
            colour: seat.colour(),
        });
    Situation {
        rules: game.rules(),
        seats: game.seats().to_vec(),
        me,
        position: *game.position(),
        allowance: allowance_of(game),
        moving: moving_of(game),
        eligible: game.eligible(),
        forbidden: game.forbidden(),
        game: Some(game.clone()),
    }
}

/// How the turn is to be used, with a thrown die's clicks as `Clicks`.
fn allowance_of(game: &Game) -> Allowance {
    match (game.allowance(), game.clicks().0) {
        (Allowance::DieOrThree | Allowance::Die, Some(n)) => Allowance::Clicks(n),
        (a, _) => a,
    }
}

/// The same-piece and clicks rules' state of the move in progress, as the engine has it.
fn moving_of(game: &Game) -> MoveState {
    let (allowed, used) = game.clicks();
    let mut moving = MoveState::new(allowed.unwrap_or(0), SlotSet::EMPTY);
    moving.used = used;
    moving.candidates = game.candidates();
    moving.narrows = game.rules().same_piece();
    moving
}

/// The situation of this client's seat in a room whose game is known; `game` is the bot's
/// copy of it when in step with the room, the judge of the move before (no-reversal rule) and
/// of the same-piece rule. Without one (a copy that lost step, a snapshot mid-move) only the
/// basic rules of the room's turn are known.
pub fn situation(room: &RoomState, game: Option<&Game>) -> Option<Situation> {
    let rules = room.rules?;
    let me_seat = room.me()?;
    let colour = room.colour_of(me_seat)?;
    // The copy knows what the turn is (a placement, a die the leader must throw); the room
    // knows how many clicks a thrown die gave.
    let allowance = match (game.map(Game::allowance), room.clicks()) {
        (Some(Allowance::Place(rule)), _) => Allowance::Place(rule),
        (Some(_), Some(n)) => Allowance::Clicks(n),
        (Some(a), None) => a,
        (None, _) => room.allowance()?,
    };
    let moving = match game {
        Some(g) => moving_of(g),
        None => {
            let own = room.mover().and_then(|m| room.colour_of(m));
            let mut m = MoveState::new(
                room.clicks().unwrap_or(0),
                own.map_or(SlotSet::EMPTY, |c| room.position.of(c)),
            );
            m.narrows = rules.same_piece();
            m.used = room.used();
            m
        }
    };
    Some(Situation {
        rules,
        seats: room.order.clone(),
        me: SeatInfo {
            seat: me_seat,
            colour,
        },
        position: room.position,
        allowance,
        moving,
        eligible: room.eligible(),
        forbidden: game.and_then(Game::forbidden),
        game: game.cloned(),
    })
}
