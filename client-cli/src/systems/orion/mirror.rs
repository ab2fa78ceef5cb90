//! A bot's own copy of its room's game: an engine [`Game`] kept in step with the room's
//! events, so the bot asks the engine itself what the rules allow (locked rotors, hops, the
//! dragon's guarded rotors, the knights' levels, who leads the race and must throw the die).
//!
//! The copy is set up with [`Game::following`] (the first mover the room's `start` named: no
//! seed of the room's is needed, and the room reveals its seed only at `over`) and thrown the
//! room's own dice ([`Game::step_roll`] with the `roll` event's value). The events do not tell
//! everything: the other players' secret men are stand-ins. When it cannot follow (a
//! challenge, a turn clock undoing a move), it is rebuilt from the room at the next turn.

use super::room::{RoomState, Status};
use crate::systems::orion::wire::seat as engine_seat;
use orion_ai::systems::places::edge_distance;
use orion_engine::{parse_click, parse_slot, Action, Allowance, Game, Piece, Seat, SlotSet};
use orion_protocol::{Event as Ev, Seat as WireSeat};

/// The copy of one room's game.
#[derive(Clone, Default)]
pub struct Mirror {
    /// The copy; `None` before the game starts, or after it lost step (until the next turn).
    game: Option<Game>,
    /// This player's seat.
    me: Option<Seat>,
    /// Who moved first (rounds begin with him).
    first: Option<Seat>,
    /// This player's secret man, once chosen (Algol).
    secret: Option<Piece>,
    /// Seats that have chosen a secret man, to choose again on a rebuilt copy.
    chosen: Vec<Seat>,
    /// A challenge was made (it ends the turn): the rest of its step is on its way.
    challenged: bool,
    /// Events of the step the copy has taken that the room has not sent yet (a click that
    /// earns a hop or ends the turn is followed by a `turn` event, and so on).
    expected: usize,
}

impl Mirror {
    /// A copy for the player at `me` (`None` for a spectator).
    pub fn new(me: Option<Seat>) -> Mirror {
        Mirror {
            me,
            ..Mirror::default()
        }
    }

    /// This player's seat, once known.
    pub fn seat(&mut self, me: Seat) {
        self.me = Some(me);
    }

    /// This player's own secret man, as chosen (or as his snapshot tells it).
    pub fn secret(&mut self, piece: Piece) {
        self.secret = Some(piece);
    }

    /// The copy, when it is in step with the room: same mover, clicks used and board.
    pub fn game(&self, room: &RoomState) -> Option<&Game> {
        let g = self.game.as_ref()?;
        let in_step = room.status() == Status::Playing
            && g.outcome().is_none()
            && Some(g.mover()) == room.mover()
            && g.clicks().1 == room.used()
            && *g.position() == room.position;
        in_step.then_some(g)
    }

    /// Whether the room is in the middle of a step the copy has already taken in whole: the
    /// copy's turn has ended, or its clicks are known, before the room's `turn` event says
    /// so (the server sends a step's events one by one). A bot waits for the rest.
    pub fn ahead(&self, room: &RoomState) -> bool {
        if self.challenged || self.expected > 0 {
            return true;
        }
        let Some(g) = self.game.as_ref() else {
            return false;
        };
        // A secret man asked for and not yet taken: the room's `secret` event is coming.
        let choosing = self.secret.is_some() && self.me.is_some_and(|me| g.secret(me).is_none());
        choosing
            || g.outcome().is_some()
            || Some(g.mover()) != room.mover()
            || (g.clicks_left().is_some() && room.clicks().is_none())
    }

    /// Starts again from a room known by its snapshot (only at the start of a turn: the
    /// snapshot does not say which piece a half-made move is moving).
    pub fn reset(&mut self, room: &RoomState) {
        self.game = None;
        self.challenged = false;
        self.expected = 0;
        if room.status() == Status::Playing && room.used() == 0 {
            self.rebuild(room);
        }
    }

    /// Follows one event the room has just applied.
    pub fn follow(&mut self, room: &RoomState, ev: &Ev<'_>) {
        let engine_event = !matches!(
            ev,
            Ev::Joined { .. } | Ev::Left { .. } | Ev::Chat { .. } | Ev::Move { .. }
        );
        if self.expected > 0 && engine_event {
            // The rest of a step the copy has taken already.
            self.expected -= 1;
            if self.expected == 0 {
                self.check(room);
            }
            return;
        }
        match ev {
            Ev::Start { .. } => {
                self.first = room.mover();
                self.chosen.clear();
                self.rebuild(room);
            }
            Ev::Click { seat, click, .. } => {
                if let Ok(click) = parse_click(click) {
                    self.step(*seat, Action::Click { click, piece: None });
                } else {
                    self.game = None;
                }
            }
            Ev::Place {
                seat, slot, from, ..
            } => {
                let from = from.as_deref().map(parse_slot);
                match (parse_slot(slot), from.transpose()) {
                    (Ok(slot), Ok(from)) => self.step(*seat, Action::Place { slot, from }),
                    _ => self.game = None,
                }
            }
            Ev::Roll { seat, value } => match engine_seat(*seat) {
                Some(seat) => self.throw(seat, *value),
                None => self.game = None,
            },
            Ev::Turn {
                seat,
                clicks,
                round,
                ..
            } => self.turn(room, *seat, *clicks, *round),
            Ev::Secret { seat, .. } => {
                let Some(seat) = engine_seat(*seat) else {
                    return;
                };
                if !self.chosen.contains(&seat) {
                    self.chosen.push(seat);
                }
                self.choose(seat);
            }
            // The copy cannot tell a hit from a miss (the secrets are stand-ins): it is
            // rebuilt at the turn the challenge ends.
            Ev::Challenge { .. } => {
                self.game = None;
                self.challenged = true;
            }
            _ => {}
        }
        if self.expected == 0 && engine_event {
            self.check(room);
        }
    }

    /// At the end of a step: a copy whose board or mover differs from the room's is rebuilt
    /// (at the start of a turn) or set aside until the next turn.
    fn check(&mut self, room: &RoomState) {
        let differs = self.game.as_ref().is_some_and(|g| {
            room.status() == Status::Playing
                && g.outcome().is_none()
                && (Some(g.mover()) != room.mover() || *g.position() != room.position)
        });
        if differs {
            if std::env::var_os("ORION_BOT_DEBUG").is_some() {
                eprintln!(
                    "DEBUG {:?} copy differs from the room at {}",
                    self.me,
                    room.seq()
                );
            }
            self.rebuild(room);
        }
    }

    fn turn(&mut self, room: &RoomState, seat: WireSeat, clicks: Option<u8>, round: u32) {
        self.challenged = false;
        let (Some(seat), Some(g)) = (engine_seat(seat), self.game.as_mut()) else {
            self.rebuild(room);
            return;
        };
        if g.outcome().is_none() && g.mover() == seat && g.round() == round {
            // The same turn: three clicks chosen (a thrown die was followed already), or a
            // hop the copy has made too.
            if g.allowance() == Allowance::DieOrThree && clicks == Some(3) {
                self.step_as(seat, Action::Three);
            }
            return;
        }
        if g.outcome().is_none() {
            // The room's turn ended (its clicks used up, or the mover ended it).
            let mover = g.mover();
            self.step_as(mover, Action::EndTurn);
        }
        if self.expected > 0 {
            // The new turn's own events (a capture at its start) follow.
            return;
        }
        let in_step = self.game.as_ref().is_some_and(|g| {
            g.mover() == seat && g.round() == round && *g.position() == room.position
        });
        if !in_step {
            self.rebuild(room);
        }
    }

    fn step(&mut self, seat: WireSeat, action: Action) {
        match engine_seat(seat) {
            Some(seat) => self.step_as(seat, action),
            None => self.game = None,
        }
    }

    fn step_as(&mut self, seat: Seat, action: Action) {
        let Some(g) = self.game.as_mut() else {
            return;
        };
        let stepped = g.step(seat, action, 0);
        self.stepped(seat, action, stepped);
    }

    /// The room's die showed `value`: the copy throws the same.
    fn throw(&mut self, seat: Seat, value: u8) {
        let Some(g) = self.game.as_mut() else {
            return;
        };
        let stepped = g.step_roll(seat, value);
        self.stepped(seat, Action::Roll, stepped);
    }

    fn stepped(
        &mut self,
        seat: Seat,
        action: Action,
        stepped: Result<Vec<orion_engine::Event>, orion_engine::ActionError>,
    ) {
        match stepped {
            // The first event is the one followed; the others are on their way.
            Ok(events) => self.expected = events.len().saturating_sub(1),
            Err(e) => {
                if std::env::var_os("ORION_BOT_DEBUG").is_some() {
                    eprintln!("DEBUG copy lost step at {seat} {action:?}: {e}");
                }
                self.game = None;
            }
        }
    }

    /// Gives `seat` its secret man on the copy: the real one for this player, a stand-in for
    /// the others (their man farthest from the edge he must reach, so the copy does not end
    /// the game by a crossing that may not be real). A secret man can leave the board (as the
    /// piece of a wrong challenge): a rebuilt copy then has a stand-in for him too.
    fn choose(&mut self, seat: Seat) {
        let Some(g) = self.game.as_mut() else {
            return;
        };
        let own = self
            .secret
            .filter(|&piece| Some(seat) == self.me && g.position().find(piece).is_some());
        let piece = own.or_else(|| stand_in(g, seat));
        match piece {
            Some(piece) => self.step_as(seat, Action::Secret { piece }),
            None => self.game = None,
        }
    }

    /// A fresh copy at the start of the room's current turn.
    fn rebuild(&mut self, room: &RoomState) {
        if std::env::var_os("ORION_BOT_DEBUG").is_some() {
            eprintln!("DEBUG {:?} rebuilds its copy at {}", self.me, room.seq());
        }
        self.game = None;
        let (Some(rules), Some(mover)) = (room.rules, room.mover()) else {
            return;
        };
        if room.status() != Status::Playing || room.used() > 0 {
            return;
        }
        let mut options = room.engine_options();
        options.players = Some(room.order.len() as u8);
        // Rounds begin with the first mover; a copy made after a snapshot does not know him
        // and takes the mover (its rounds may then differ, and it is rebuilt at each turn).
        let first = self.first.unwrap_or(mover);
        let Ok(game) = Game::following(rules, options, room.position, first, mover, room.round())
        else {
            return;
        };
        self.game = Some(game);
        for seat in self.chosen.clone() {
            self.choose(seat);
        }
        // The die or three already chosen this turn: the room's clicks are what the die showed.
        if let (Some(clicks), Some(g)) = (room.clicks(), self.game.as_ref()) {
            match g.allowance() {
                Allowance::DieOrThree if clicks == 3 => self.step_as(mover, Action::Three),
                Allowance::DieOrThree | Allowance::Die => self.throw(mover, clicks),
                _ => {}
            }
        }
        // What was replayed here has been seen already.
        self.expected = 0;
    }
}

/// The man of `seat` farthest from the edge it must reach.
fn stand_in(game: &Game, seat: Seat) -> Option<Piece> {
    let colour = game.colour_of(seat)?;
    let p = game.position();
    let goal = seat.edge().opposite();
    let men: SlotSet = p.of(colour);
    let slot = men.into_iter().max_by_key(|&s| edge_distance(s, goal))?;
    p.get(slot)
}

#[cfg(test)]
mod tests {
    use super::super::bot;
    use super::*;
    use crate::bot::level::Level;
    use crate::bot::Decider;
    use crate::systems::orion::wire::{event as wire, wire_seat};
    use orion_engine::{games, position_string, Options};
    use orion_protocol::{ClaimWindow, RoomOptions, Snapshot, Status as WireStatus, Turn};

    /// One player's view: the room as its events tell it, and the bot's copy of the game.
    struct Player {
        room: RoomState,
        mirror: Mirror,
        bot: Decider,
    }

    /// Plays `game` with the engine as the server, each seat a bot that sees only the events
    /// (as over the wire), and checks at every step that the bot's copy is in step, that it
    /// knows when a step's events are all in, and that the engine takes every action the bot
    /// chooses. Returns whether the game ended within `actions`.
    fn play(game_id: &str, levels: [Level; 2], seed: u64, actions: u32) -> bool {
        let rules = games::find(game_id).expect("a game");
        let options = Options {
            claim_window: orion_engine::ClaimWindow::Auto,
            ..Options::default()
        };
        let mut game = Game::new(rules, options, seed).expect("a game");
        let seats = game.seats().to_vec();
        let snapshot = Snapshot {
            room: "r".into(),
            seq: 0,
            game: game_id.into(),
            options: RoomOptions {
                claim_window: Some(ClaimWindow::Auto),
                ..RoomOptions::default()
            },
            status: WireStatus::Waiting,
            seats: seats.iter().map(|s| (wire_seat(s.seat), None)).collect(),
            spectators: 0,
            position: String::new(),
            turn: Turn {
                seat: wire_seat(game.mover()),
                clicks: None,
                used: 0,
                round: 1,
                systems: Default::default(),
            },
            scores: Default::default(),
            claims: vec![],
            result: None,
            deadline: None,
            systems: Default::default(),
        };
        let mut players: Vec<Player> = seats
            .iter()
            .enumerate()
            .map(|(i, s)| Player {
                room: RoomState::from_snapshot(&snapshot, Some(wire_seat(s.seat))),
                mirror: Mirror::new(Some(s.seat)),
                bot: Decider::new(levels[i % 2], seed * 8 + i as u64),
            })
            .collect();
        let mut seq = 0;
        let mut publish = |players: &mut Vec<Player>, events: &[Ev<'static>]| {
            for (k, ev) in events.iter().enumerate() {
                seq += 1;
                for p in players.iter_mut() {
                    p.room.apply(seq, ev).expect("no gap");
                    p.mirror.follow(&p.room, ev);
                    if k + 1 == events.len() && p.room.status() == Status::Playing {
                        assert!(
                            !p.mirror.ahead(&p.room),
                            "{game_id}: {:?} waits for more after {ev:?}",
                            p.room.me()
                        );
                    }
                }
            }
        };
        let (allowed, _) = game.clicks();
        let start = Ev::Start {
            position: position_string(game.position()).into(),
            turn: Turn {
                seat: wire_seat(game.mover()),
                clicks: allowed,
                used: 0,
                round: 1,
                systems: Default::default(),
            },
            seed_commitment: None,
            rated: None,
        };
        publish(&mut players, &[start]);
        for (i, s) in seats.iter().enumerate() {
            let p = &mut players[i];
            let copy = p.mirror.game(&p.room).expect("a copy in step").clone();
            if let Some(secret @ Action::Secret { piece }) = bot::secret(&mut p.bot, &copy, s.seat)
            {
                p.mirror.secret(piece);
                let events = game.step(s.seat, secret, 0).expect("a secret is taken");
                let events: Vec<Ev<'static>> = events.iter().map(wire).collect();
                publish(&mut players, &events);
            }
        }
        for _ in 0..actions {
            if game.outcome().is_some() {
                return true;
            }
            let mover = game.mover();
            let i = seats.iter().position(|s| s.seat == mover).expect("a seat");
            let p = &mut players[i];
            let copy = p.mirror.game(&p.room);
            assert!(
                copy.is_some(),
                "{game_id}: {mover}'s copy is out of step at {}: {:?}",
                p.room.seq(),
                p.mirror
                    .game
                    .as_ref()
                    .map(|g| (g.mover(), g.clicks(), g.outcome()))
            );
            let copy = copy.expect("in step").clone();
            let action = bot::act(&mut p.bot, &copy, mover).unwrap_or(Action::EndTurn);
            if let Action::Secret { piece } = action {
                p.mirror.secret(piece);
            }
            let events = match game.step(mover, action, 0) {
                Ok(events) => events,
                Err(e) => panic!("{game_id}: {mover} chose {action:?}, refused: {e}"),
            };
            let events: Vec<Ev<'static>> = events.iter().map(wire).collect();
            publish(&mut players, &events);
        }
        game.outcome().is_some()
    }

    #[test]
    fn random_bots_follow_every_game_and_are_never_refused() {
        for rules in games::ALL {
            for seed in 1..=2 {
                play(rules.id(), [Level::Random, Level::Random], seed, 400);
            }
        }
    }

    #[test]
    fn greedy_bots_follow_the_games_of_places_and_are_never_refused() {
        // Not Algol: its copy holds stand-ins for the other seat's secret man (and for its
        // own once he is taken and the copy is rebuilt), so a crossing or a challenge can
        // put it out of step until the next turn, which `random_bots_…` and the game through
        // a server (`tests/bots.rs`) cover.
        for id in ["auriga", "lepus", "libra", "draco", "taurus", "bootes"] {
            assert!(
                play(id, [Level::Greedy, Level::Random], 3, 1500),
                "{id}: greedy against random ends"
            );
        }
    }
}
