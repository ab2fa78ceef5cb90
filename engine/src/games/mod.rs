//! The registry of games: one file per game, one line per game in `ALL`; and of the puzzles
//! as one-player rooms, one line each in `PUZZLES`. Helpers shared by the games' setups (the
//! starting rows, turning a seat's slots round the board) live here. The games whose goals
//! are places on the board (`bootes`, `cassiopeia`, `draco`, `lepus`, `taurus`) are public modules so a bot
//! can read those places instead of copying them.

use crate::board::{Rotor, Slot, SlotSet};
use crate::game::Rules;
use crate::piece::{Colour, Piece};
use crate::position::Position;
use crate::seat::{Seat, SeatInfo};

mod algol;
mod aquarius;
mod auriga;
pub mod bootes;
pub mod cassiopeia;
pub mod draco;
mod hydra_four;
mod hydra_partners;
mod hydra_two;
pub mod lepus;
mod libra;
mod orion;
mod puzzle;
pub mod taurus;

pub use algol::Algol;
pub use aquarius::Aquarius;
pub use auriga::{angle as auriga_angle, turn_between as auriga_turn, Auriga};
pub use bootes::Bootes;
pub use cassiopeia::{Cassiopeia, CassiopeiaFive};
pub use draco::Draco;
pub use hydra_four::HydraFour;
pub use hydra_partners::HydraPartners;
pub use hydra_two::HydraTwo;
pub use lepus::Lepus;
pub use libra::Libra;
pub use orion::Orion;
pub use puzzle::PuzzleRoom;
pub use taurus::Taurus;

/// Every game, in the booklet's order. Adding a game: its file, and one line here.
pub static ALL: &[&dyn Rules] = &[
    &Auriga,
    &Lepus,
    &Algol,
    &Libra,
    &Draco,
    &Taurus,
    &HydraTwo,
    &HydraPartners,
    &HydraFour,
    &Bootes,
    &Cassiopeia,
    &CassiopeiaFive,
    &Orion,
];

/// The game with this id, booklet name or alias (case-insensitive).
pub fn find(name: &str) -> Option<&'static dyn Rules> {
    let n = name.trim().to_ascii_lowercase();
    let alias = match n.as_str() {
        "hydra" | "hydra-two" | "hydra for two" => "hydra-2",
        "hydra-four" | "hydra for four" => "hydra-4",
        "hydra for partners" | "partners" => "hydra-partners",
        "cassiopeia five" => "cassiopeia-five",
        other => other,
    };
    ALL.iter()
        .copied()
        .find(|g| g.id() == alias || g.name().eq_ignore_ascii_case(&n))
}

/// Every puzzle as a one-player room, in booklet order: the click puzzles of
/// [`crate::puzzles::NAMES`], then Aquarius. Not matched by quick match (see [`find`]).
pub static PUZZLES: &[&dyn Rules] = &[
    &puzzle::AQUILA,
    &puzzle::AURORA_A,
    &puzzle::AURORA_B,
    &puzzle::WHIRLPOOL,
    &puzzle::HERDSMAN,
    &puzzle::BINARY_1,
    &puzzle::BINARY_2,
    &puzzle::BINARY_3,
    &puzzle::BINARY_4,
    &puzzle::ORBIT_A,
    &puzzle::ORBIT_B,
    &Aquarius,
];

/// The puzzle room with this name (`aquila`, `binary-3`, `aquarius`; case-insensitive).
pub fn find_puzzle(name: &str) -> Option<&'static dyn Rules> {
    let n = name.trim().to_ascii_lowercase();
    PUZZLES.iter().copied().find(|p| p.id() == n)
}

/// Whatever a room can host: a game (see [`find`]) or a puzzle (see [`find_puzzle`]).
pub fn find_any(name: &str) -> Option<&'static dyn Rules> {
    find(name).or_else(|| find_puzzle(name))
}

/// The slots of the orbits of rotors A1..E1: the row of orbits nearest `S` (16 slots).
pub fn home_row() -> SlotSet {
    (0..5)
        .filter_map(|c| Rotor::at(c, 0))
        .fold(SlotSet::EMPTY, |set, r| set | r.orbit_set())
}

/// `S`'s twelve slots when three or four play: the row of orbits nearest him with the
/// corner rotors divided on the diagonal (A1s..E1s, A1e..D1e, B1n..D1n).
pub fn home_twelve() -> SlotSet {
    let mut set = SlotSet::EMPTY;
    for c in 0..5 {
        set.insert(Slot::horizontal(0, c).expect("on board"));
    }
    for x in 1..5 {
        set.insert(Slot::vertical(x, 0).expect("on board"));
    }
    for c in 1..4 {
        set.insert(Slot::horizontal(1, c).expect("on board"));
    }
    set
}

/// A set of slots as seen from `seat`: `S`'s slots turned to that seat's side of the board.
pub fn for_seat(south: SlotSet, seat: Seat) -> SlotSet {
    let turns = seat as u8; // S, W, N, E are successive quarter turns clockwise.
    south
        .into_iter()
        .map(|mut s| {
            for _ in 0..turns {
                s = s.rotated_cw();
            }
            s
        })
        .collect()
}

/// Fills `slots` with pieces of `colour`, numbered from 1 in canonical slot order.
pub fn fill(position: &mut Position, colour: Colour, slots: SlotSet) {
    for (i, slot) in slots.into_iter().enumerate() {
        if let Some(piece) = Piece::new(colour, i as u8 + 1) {
            position.put(slot, piece);
        }
    }
}

/// Seats for a game of two to four players, each with its own colour: two play across the
/// board (`S`, `N`), three take `S`, `W`, `N`, four every seat.
pub fn across_or_round(players: u8) -> Vec<SeatInfo> {
    match players {
        2 => own_colours(&[Seat::S, Seat::N]),
        n => own_colours(&Seat::ALL[..(n as usize).min(4)]),
    }
}

/// Every seat's pieces on its home slots: `home` is `S`'s, turned to each seat's side.
pub fn fill_homes(seats: &[SeatInfo], home: SlotSet) -> Position {
    let mut p = Position::empty();
    for s in seats {
        fill(&mut p, s.colour, for_seat(home, s.seat));
    }
    p
}

/// Seats in turn order, each with its own colour.
pub fn own_colours(seats: &[Seat]) -> Vec<SeatInfo> {
    seats
        .iter()
        .map(|&seat| SeatInfo {
            seat,
            colour: seat.colour(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_is_found_by_its_id_and_name() {
        for g in ALL {
            assert_eq!(find(g.id()).map(|f| f.id()), Some(g.id()));
            assert_eq!(find(g.name()).map(|f| f.id()), Some(g.id()));
        }
        assert_eq!(find("Hydra").map(|g| g.id()), Some("hydra-2"));
        assert!(find("chess").is_none());
    }

    #[test]
    fn every_puzzle_is_a_room_of_one_and_no_game() {
        let names: Vec<&str> = PUZZLES.iter().map(|p| p.id()).collect();
        let mut expected = crate::puzzles::NAMES.to_vec();
        expected.push("aquarius");
        assert_eq!(names, expected);
        for p in PUZZLES {
            assert_eq!(find_puzzle(p.id()).map(|f| f.id()), Some(p.id()));
            assert_eq!(find_any(p.id()).map(|f| f.id()), Some(p.id()));
            assert!(find(p.id()).is_none(), "{} is not a game", p.id());
            assert_eq!(p.players(), 1..=1);
            assert!(!p.name().is_empty());
        }
        assert_eq!(find_any("hydra").map(|g| g.id()), Some("hydra-2"));
    }

    #[test]
    fn the_home_rows_have_the_booklet_counts() {
        assert_eq!(home_row().len(), 16);
        assert_eq!(home_twelve().len(), 12);
        // Four seats' twelve slots never overlap.
        let mut all = SlotSet::EMPTY;
        for seat in Seat::ALL {
            let s = for_seat(home_twelve(), seat);
            assert!(!all.intersects(s), "{seat} overlaps");
            all |= s;
        }
        assert_eq!(all.len(), 48);
    }
}
