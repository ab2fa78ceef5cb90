//! The star itself: hole names, adjacency, distances, the six points and their rows, and
//! position and move text.

use orion_orbs::{Hole, HoleSet, Move, Orb, Position, Seat, HOLES};

fn hole(text: &str) -> Hole {
    text.parse().expect("test hole parses")
}

fn holes(text: &str) -> Vec<Hole> {
    text.split_whitespace().map(hole).collect()
}

#[test]
fn every_hole_name_round_trips_and_the_corners_are_where_the_spec_says() {
    assert_eq!(Hole::all().count(), HOLES);
    for h in Hole::all() {
        assert_eq!(h.to_string().parse::<Hole>(), Ok(h));
    }
    for (name, row, x) in [
        ("a1", 0, 0),
        ("i5", 8, 0),
        ("e1", 4, -12),
        ("e13", 4, 12),
        ("m1", 12, -12),
        ("q1", 16, 0),
        ("i1", 8, -8),
        ("h10", 7, 9),
    ] {
        assert_eq!((hole(name).row(), hole(name).x()), (row, x), "{name}");
    }
    assert_eq!(Hole::CENTRE, hole("i5"));
    assert_eq!(hole("E13"), hole("e13"), "either case");
    for bad in ["", "a", "a0", "a2", "e14", "r1", "1a", "i5x", "d-1", "é1"] {
        assert!(bad.parse::<Hole>().is_err(), "{bad:?} should not parse");
    }
}

#[test]
fn row_lengths_are_the_star() {
    let lengths: Vec<usize> = (0..17)
        .map(|r| Hole::all().filter(|h| h.row() == r).count())
        .collect();
    assert_eq!(
        lengths,
        [1, 2, 3, 4, 13, 12, 11, 10, 9, 10, 11, 12, 13, 4, 3, 2, 1]
    );
}

#[test]
fn adjacency_table() {
    for (h, neighbours) in [
        // The centre has six; each tip two.
        ("i5", "h5 h6 i4 i6 j5 j6"),
        ("a1", "b1 b2"),
        ("q1", "p1 p2"),
        ("e1", "e2 f1"),
        ("e13", "e12 f12"),
        ("m1", "l1 m2"),
        ("m13", "l12 m12"),
        // The foot of the bottom point meets row e.
        ("d1", "c1 d2 e5 e6"),
        ("d4", "c3 d3 e8 e9"),
        // The inner corner where a side point meets the hexagon.
        ("e5", "d1 e4 e6 f4 f5"),
        ("h1", "g1 g2 h2 i1"),
        ("i1", "h1 h2 i2 j1 j2"),
    ] {
        let mut got: Vec<String> = hole(h).neighbours().map(|n| n.to_string()).collect();
        got.sort();
        let mut want: Vec<String> = neighbours.split(' ').map(String::from).collect();
        want.sort();
        assert_eq!(got, want, "neighbours of {h}");
    }
}

#[test]
fn adjacency_is_symmetric_and_at_most_six() {
    for h in Hole::all() {
        let n: Vec<Hole> = h.neighbours().collect();
        assert!((2..=6).contains(&n.len()), "{h} has {}", n.len());
        for m in n {
            assert!(m.is_adjacent(h), "{m} should be next to {h}");
            assert_eq!(h.distance(m), 1);
        }
        assert!(!h.is_adjacent(h));
    }
    let two: HoleSet = Hole::all()
        .filter(|h| h.neighbours().count() == 2)
        .collect();
    let tips: HoleSet = Seat::ALL.into_iter().map(Seat::tip).collect();
    assert_eq!(two, tips, "only the six tips have two neighbours");
}

#[test]
fn distances() {
    for (a, b, d) in [
        ("a1", "q1", 16),
        ("a1", "i5", 8),
        ("e1", "e13", 12),
        ("e1", "m13", 16),
        ("e1", "i5", 8),
        ("d2", "e6", 1),
        ("d2", "e7", 1),
        ("d2", "e8", 2),
    ] {
        assert_eq!(hole(a).distance(hole(b)), d, "{a}-{b}");
    }
}

#[test]
fn the_six_points_and_their_rows_from_the_centre_outward() {
    let mut all = HoleSet::EMPTY;
    for seat in Seat::ALL {
        let point = seat.point();
        assert_eq!(point.len(), 10, "{seat}");
        assert!((all & point).is_empty(), "{seat} overlaps another point");
        all |= point;
        assert!(point.contains(seat.tip()));
        assert!(!point.contains(Hole::CENTRE));
    }
    assert_eq!(all.len(), 60);
    assert_eq!(
        Seat::SW.point().to_string(),
        "e1 e2 e3 e4 f1 f2 f3 g1 g2 h1",
        "row e: 4 at the end, f: 3, g: 2, h: 1"
    );
    assert_eq!(
        Seat::NE.point().to_string(),
        "j10 k10 k11 l10 l11 l12 m10 m11 m12 m13"
    );
    // Left to right as the owner sits at his tip facing the centre.
    for (seat, rows) in [
        (Seat::S, ["d1 d2 d3 d4", "c1 c2 c3", "b1 b2", "a1"]),
        (Seat::N, ["n4 n3 n2 n1", "o3 o2 o1", "p2 p1", "q1"]),
        (Seat::SW, ["h1 g2 f3 e4", "g1 f2 e3", "f1 e2", "e1"]),
        (
            Seat::SE,
            ["e10 f10 g10 h10", "e11 f11 g11", "e12 f12", "e13"],
        ),
        (Seat::NW, ["m4 l3 k2 j1", "m3 l2 k1", "m2 l1", "m1"]),
        (
            Seat::NE,
            ["j10 k10 l10 m10", "k11 l11 m11", "l12 m12", "m13"],
        ),
    ] {
        let got: Vec<Vec<Hole>> = seat.point_rows().into_iter().collect();
        let want: Vec<Vec<Hole>> = rows.iter().map(|r| holes(r)).collect();
        assert_eq!(got, want, "{seat}");
        for (i, row) in got.iter().enumerate() {
            for h in row {
                assert_eq!(h.distance(seat.tip()), 3 - i as u32, "{seat} {h}");
            }
        }
    }
}

#[test]
fn position_strings_round_trip_in_reading_order() {
    let p: Position = "q1:BW a1:RW b2:RA b1:RA".parse().unwrap();
    assert_eq!(p.to_string(), "a1:RW b1:RA b2:RA q1:BW");
    assert_eq!(p.get(hole("b2")), Orb::parse("RA"));
    assert_eq!("".parse::<Position>().unwrap().to_string(), "");
    for (text, error) in [
        ("a1RW", "`a1RW` is not hole:orb (e.g. `a1:RW`)"),
        (
            "z1:RW",
            "unknown hole `z1` (rows a to q, places from 1, e.g. `d2`, `i5`)",
        ),
        (
            "a1:RX",
            "`RX` is not an orb (colour R, B, G, Y, O or P, then element F, W, E, A or V)",
        ),
        (
            "a1:R",
            "`R` is not an orb (colour R, B, G, Y, O or P, then element F, W, E, A or V)",
        ),
        ("a1:RW a1:BF", "two orbs on a1"),
    ] {
        assert_eq!(
            text.parse::<Position>().unwrap_err().to_string(),
            error,
            "{text}"
        );
    }
}

#[test]
fn move_text() {
    let m: Move = "d2-e6".parse().unwrap();
    assert_eq!((m.from, m.to), (hole("d2"), hole("e6")));
    assert_eq!(m.to_string(), "d2-e6");
    assert_eq!(
        "d2e6".parse::<Move>().unwrap_err().to_string(),
        "`d2e6` is not a move (from-to, e.g. `d2-e6`)"
    );
    assert_eq!(
        "d2-e14".parse::<Move>().unwrap_err().to_string(),
        "`d2-e14`: unknown hole `e14` (rows a to q, places from 1, e.g. `d2`, `i5`)"
    );
}
