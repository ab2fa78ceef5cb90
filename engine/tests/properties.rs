//! Property tests of the mechanics: clicks are permutations of the board, so a click then its
//! inverse restores any position, four clicks of one rotor are the identity, and no click
//! creates, destroys or recolours a piece. Two ways of moving a set of slots must agree.

use orion_engine::{
    parse_position, position_string, Click, Colour, Piece, Position, Slot, SlotSet,
};
use proptest::prelude::*;

/// Any position: up to 60 pieces of any colours, each colour numbered from 1.
fn any_position() -> impl Strategy<Value = Position> {
    proptest::collection::vec(proptest::option::of(0u8..4), 60).prop_map(|slots| {
        let mut p = Position::empty();
        let mut next = [1u8; 4];
        for (i, colour) in slots.into_iter().enumerate() {
            if let Some(c) = colour {
                let colour = Colour::ALL[c as usize];
                if let Some(piece) = Piece::new(colour, next[c as usize]) {
                    next[c as usize] += 1;
                    p.put(Slot::from_index(i).unwrap(), piece);
                }
            }
        }
        p
    })
}

fn any_click() -> impl Strategy<Value = Click> {
    (0usize..50).prop_map(|i| Click::ALL[i])
}

fn pieces(p: &Position) -> Vec<Piece> {
    let mut v: Vec<Piece> = p.pieces().map(|(_, piece)| piece).collect();
    v.sort();
    v
}

proptest! {
    #[test]
    fn a_click_then_its_inverse_restores_the_board(p in any_position(), c in any_click()) {
        prop_assert_eq!(p.clicked(c).clicked(c.inverse()), p);
    }

    #[test]
    fn four_clicks_of_one_rotor_are_the_identity(p in any_position(), c in any_click()) {
        prop_assert_eq!(p.clicked(c).clicked(c).clicked(c).clicked(c), p);
    }

    #[test]
    fn clicks_conserve_the_pieces(p in any_position(), cs in proptest::collection::vec(any_click(), 0..20)) {
        let mut q = p;
        q.play(&cs);
        prop_assert_eq!(pieces(&q), pieces(&p));
        // The per-colour sets stay in step with the slots.
        for colour in Colour::ALL {
            let from_slots: SlotSet = q.pieces().filter(|(_, x)| x.colour() == colour).map(|(s, _)| s).collect();
            prop_assert_eq!(q.of(colour), from_slots);
        }
    }

    #[test]
    fn moving_a_set_agrees_with_moving_the_pieces(p in any_position(), c in any_click()) {
        prop_assert_eq!(p.occupied().clicked(c), p.clicked(c).occupied());
        for slot in p.occupied() {
            let piece = p.get(slot);
            let to = c.destination(slot).unwrap_or(slot);
            prop_assert_eq!(p.clicked(c).get(to), piece);
        }
    }

    #[test]
    fn position_strings_round_trip(p in any_position()) {
        let text = position_string(&p);
        prop_assert_eq!(parse_position(&text).unwrap(), p);
    }
}
