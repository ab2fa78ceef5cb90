//! How the ladder seats a pairing: one level alone against the other's three in a game of
//! four, or two of each in halves, and partners always together.

use orion_ai::ladder::{first_seats, parse_game, Seating};

fn seats(game: &str, seating: Seating, g: u32) -> Vec<bool> {
    let spec = parse_game(game, None, false).unwrap();
    first_seats(&spec, seating, g).unwrap()
}

#[test]
fn in_halves_each_level_takes_every_other_seat_of_hydra_for_four_turn_about() {
    assert_eq!(
        seats("hydra-4", Seating::Halves, 0),
        [true, false, true, false]
    );
    assert_eq!(
        seats("hydra-4", Seating::Halves, 1),
        [false, true, false, true]
    );
    assert_eq!(
        seats("hydra-4", Seating::Halves, 2),
        [true, false, true, false]
    );
}

#[test]
fn alone_one_level_plays_against_three_and_moves_round_the_table() {
    for g in 0..4u32 {
        let firsts = seats("hydra-4", Seating::Alone, g);
        assert_eq!(firsts.iter().filter(|&&f| f).count(), 1, "game {g}");
        assert!(
            firsts[g as usize],
            "game {g}: the first player sits at seat {g}"
        );
    }
}

#[test]
fn partners_sit_together_and_two_player_games_alternate_whatever_the_seating() {
    for g in 0..4u32 {
        let alone = seats("hydra-partners", Seating::Alone, g);
        assert_eq!(alone, seats("hydra-partners", Seating::Halves, g));
        assert_eq!(alone.iter().filter(|&&f| f).count(), 2);
        let two = seats("hydra-2", Seating::Halves, g);
        assert_eq!(two, seats("hydra-2", Seating::Alone, g));
        assert_eq!(two, [g % 2 == 0, g % 2 == 1]);
    }
}
