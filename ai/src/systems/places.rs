//! How good a game is for one seat, game by game, for the games whose goal is a place on the
//! board (ported from the terminal client's `greedy` bot, whose evaluation it is) (Auriga, Lepus, Algol, Libra, Draco, Taurus, Bootes). Distances are
//! counted in clicks: the fewest quarter turns that carry a piece from one slot to another,
//! the rest of the board aside. Higher is better for the seat; a finished game is decided.

use orion_engine::games::{bootes, draco, lepus, taurus};
use orion_engine::{Click, Direction, Edge, Game, Seat, SeatInfo, Slot, SlotSet, Winner};
use std::sync::OnceLock;

/// The value of a won game (more than any evaluation of a game in progress).
pub const WIN: f64 = 1_000_000.0;
/// The value of a lost game.
pub const LOSS: f64 = -1_000_000.0;

/// Further than any two slots are apart in clicks.
const FAR: u8 = u8::MAX;

/// Clicks between every two slots (breadth-first over the quarter turns of their rotors).
fn table() -> &'static [[u8; 60]; 60] {
    static TABLE: OnceLock<Box<[[u8; 60]; 60]>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = Box::new([[FAR; 60]; 60]);
        for from in Slot::ALL {
            let row = &mut t[from.index()];
            row[from.index()] = 0;
            let mut queue = std::collections::VecDeque::from([from]);
            while let Some(s) = queue.pop_front() {
                let d = row[s.index()];
                for rotor in s.rotors().iter() {
                    for direction in [Direction::Left, Direction::Right] {
                        let Some(n) = Click::new(rotor, direction).destination(s) else {
                            continue;
                        };
                        if row[n.index()] == FAR {
                            row[n.index()] = d + 1;
                            queue.push_back(n);
                        }
                    }
                }
            }
        }
        t
    })
}

/// Clicks that carry a piece from `from` to the nearest slot of `to` (`FAR` if `to` is empty).
pub fn distance_to(from: Slot, to: SlotSet) -> u8 {
    let row = &table()[from.index()];
    to.into_iter().map(|s| row[s.index()]).min().unwrap_or(FAR)
}

/// Clicks that bring a piece on `from` to touch `edge`.
pub fn edge_distance(from: Slot, edge: Edge) -> u8 {
    distance_to(from, edge.touching())
}

/// Which target slot a man on his way is counted to.
#[derive(Clone, Copy)]
enum Toward {
    /// The nearest target slot not yet held: where he must go when the targets are spread
    /// out (a back line, a star cluster).
    Missing,
    /// The nearest target slot, held or not: for a tight cluster (a corner, an orbit) whose
    /// men are turned again by the clicks that bring the others, this keeps the pack
    /// together instead of chasing one far slot.
    Any,
}

/// Filling `targets` from `pieces`: the clicks the nearest pieces need to reach the targets
/// they do not yet hold, one piece per missing target.
fn filling(pieces: SlotSet, targets: SlotSet, toward: Toward) -> f64 {
    let missing_slots = targets & !pieces;
    let missing = missing_slots.len();
    let goal = match toward {
        Toward::Missing => missing_slots,
        Toward::Any => targets,
    };
    let mut outside: Vec<u8> = (pieces & !targets)
        .into_iter()
        .map(|s| distance_to(s, goal))
        .collect();
    outside.sort_unstable();
    let short = missing.saturating_sub(outside.len());
    outside
        .iter()
        .take(missing)
        .map(|&d| f64::from(d))
        .sum::<f64>()
        + 10.0 * short as f64
}

/// The game as `me` sees it: decided if it is over, else the evaluation of its game.
pub fn value(game: &Game, me: SeatInfo) -> f64 {
    if let Some(outcome) = game.outcome() {
        return match outcome.winner {
            Some(Winner::Seat(s)) if s == me.seat => WIN,
            Some(Winner::Team(a, b)) if a == me.seat || b == me.seat => WIN,
            Some(_) => LOSS,
            None => 0.0,
        };
    }
    let others = rivals(game, me);
    match game.rules().id() {
        "auriga" => auriga(game, me),
        "lepus" => mine_less_theirs(game, me, &others, lepus),
        "algol" => algol(game, me, &others),
        "libra" => mine_less_theirs(game, me, &others, libra),
        "draco" => draco(game, me),
        "taurus" => mine_less_theirs(game, me, &others, taurus),
        "bootes" => mine_less_theirs(game, me, &others, bootes),
        _ => 0.0,
    }
}

/// The seats still in play that are not `me`'s side.
fn rivals(game: &Game, me: SeatInfo) -> Vec<SeatInfo> {
    (game.seats().iter().copied())
        .filter(|s| s.colour != me.colour && game.in_play(s.seat))
        .collect()
}

/// A race: one's own progress against the best of the others' (defending counts a little
/// less than getting on).
fn mine_less_theirs(
    game: &Game,
    me: SeatInfo,
    others: &[SeatInfo],
    progress: fn(&Game, SeatInfo) -> f64,
) -> f64 {
    progress(game, me) - 0.7 * best_rival(game, others, progress)
}

/// The best of the others' progress (0 when there is no other).
fn best_rival(game: &Game, others: &[SeatInfo], progress: fn(&Game, SeatInfo) -> f64) -> f64 {
    let best = others
        .iter()
        .map(|&s| progress(game, s))
        .fold(f64::NEG_INFINITY, f64::max);
    if best.is_finite() {
        best
    } else {
        0.0
    }
}

/// Auriga: laps round the course, one's own against the leader's among the others.
fn auriga(game: &Game, me: SeatInfo) -> f64 {
    let laps = game.laps();
    let lap_of = |seat: Seat| laps.iter().find(|(s, _)| *s == seat).map_or(0.0, |l| l.1);
    let best_other = laps
        .iter()
        .filter(|(s, _)| *s != me.seat)
        .map(|l| l.1)
        .fold(0.0, f64::max);
    10.0 * (lap_of(me.seat) - 0.5 * best_other)
}

/// Lepus: clicks still needed to fill the opposite corner, and the others' men sitting in it.
fn lepus(game: &Game, s: SeatInfo) -> f64 {
    let target = lepus::corner(s.seat.opposite());
    let p = game.position();
    let own = p.of(s.colour);
    let squatters = (p.occupied() & !own & target).len() as f64;
    -filling(own, target, Toward::Any) - 2.0 * squatters
}

/// Algol: one's secret man nearing the opposite edge, kept out of line of the others' men
/// (a challenge finds it). Only one's own secret is known.
fn algol(game: &Game, me: SeatInfo, others: &[SeatInfo]) -> f64 {
    algol_with(game, me, others, 0.0, 3.0)
}

/// Algol as the levels judge it: as [`algol`], but a secret man lost (his owner's wrong
/// challenge made with him) costs more than any distance, points still counted: `greedy`'s
/// value calls it 0, above a man far from the edge, so both sides threw theirs away in a
/// wrong challenge and played out 150 rounds of draws.
pub fn algol_judged(game: &Game, me: SeatInfo) -> f64 {
    if game.outcome().is_some() {
        return value(game, me);
    }
    let others = rivals(game, me);
    algol_with(game, me, &others, LOST_SECRET, EXPOSED)
}

/// What a lost secret man costs in [`algol_judged`]: more than the farthest man's distance.
const LOST_SECRET: f64 = -60.0;

/// What a secret man in line with another's men costs in [`algol_judged`]: the odds that
/// his next turn's guesses find it (about one in eight) times a lost game.
const EXPOSED: f64 = 10.0;

/// [`algol`], a lost secret man valued `lost` plus the points.
fn algol_with(game: &Game, me: SeatInfo, others: &[SeatInfo], lost: f64, exposure: f64) -> f64 {
    let p = game.position();
    let score = |seat: Seat| {
        game.scores()
            .iter()
            .find(|(s, _)| *s == seat)
            .map_or(0.0, |(_, n)| f64::from(*n))
    };
    let ahead = score(me.seat) - others.iter().map(|s| score(s.seat)).fold(0.0, f64::max);
    let Some(at) = game.secret(me.seat).and_then(|piece| p.find(piece)) else {
        return if lost == 0.0 { 0.0 } else { lost + 4.0 * ahead };
    };
    let theirs = others
        .iter()
        .fold(SlotSet::EMPTY, |set, s| set | p.of(s.colour));
    let exposed = if at.in_line().intersects(theirs) {
        1.0
    } else {
        0.0
    };
    // Points decide the game: a wrong challenge gives one, a found secret five.
    -5.0 * f64::from(edge_distance(at, me.seat.edge().opposite())) - exposure * exposed
        + 4.0 * ahead
}

/// Libra: one's men on the other's back line, and the clicks the nearest others need to get
/// there.
fn libra(game: &Game, s: SeatInfo) -> f64 {
    let target = s.seat.opposite().edge().border();
    let own = game.position().of(s.colour);
    5.0 * (own & target).len() as f64 - filling(own, target, Toward::Missing)
}

/// Libra as the levels judge it: one's own [`libra_attacking`] against the best of the
/// others' [`libra`], weighed [`LIBRA_DEFENCE`] (not `greedy`'s 0.7: that weight kept both
/// back lines full and every game ran to the round limit).
pub fn libra_judged(game: &Game, me: SeatInfo) -> f64 {
    if game.outcome().is_some() {
        return value(game, me);
    }
    libra_attacking(game, me) - LIBRA_DEFENCE * best_rival(game, &rivals(game, me), libra)
}

/// [`libra`] with one's own men counted as attackers, so they come forward instead of
/// shuffling at home: for each target slot not yet held, the men one click from it (up to
/// two) and two clicks (up to three), and every man's clicks to the other's edge.
fn libra_attacking(game: &Game, s: SeatInfo) -> f64 {
    let target = s.seat.opposite().edge().border();
    let own = game.position().of(s.colour);
    let free = own & !target;
    let mut v = libra(game, s);
    for t in target & !own {
        let (mut one, mut two) = (0usize, 0usize);
        for m in free {
            let d = distance_to(m, t.bit());
            one += usize::from(d <= 1);
            two += usize::from(d <= 2);
        }
        v += ONE_CLICK_ATTACKER * one.min(2) as f64 + TWO_CLICK_ATTACKER * two.min(3) as f64;
    }
    let goal = s.seat.opposite().edge();
    v - ADVANCE
        * free
            .into_iter()
            .map(|m| f64::from(edge_distance(m, goal)))
            .sum::<f64>()
}

/// [`libra_judged`]'s weights, chosen from probes of nine ladder games, not a sweep: the
/// others' progress, an attacker one click from a missing target, one within two, and a
/// man's click to the other's edge.
const LIBRA_DEFENCE: f64 = 0.4;
const ONE_CLICK_ATTACKER: f64 = 1.0;
const TWO_CLICK_ATTACKER: f64 = 0.5;
const ADVANCE: f64 = 0.2;

/// Draco: the dragon's clicks to the bottom edge and the knights guarding its rotors; the
/// knights want the opposite of the dragon.
fn draco(game: &Game, me: SeatInfo) -> f64 {
    // The dragon moves first: the engine seats it first.
    let Some(dragon) = game.seats().first().copied() else {
        return 0.0;
    };
    let p = game.position();
    let Some(at) = p.of(dragon.colour).first() else {
        return 0.0;
    };
    let knights = game
        .seats()
        .iter()
        .filter(|s| s.colour != dragon.colour)
        .fold(SlotSet::EMPTY, |set, s| set | p.of(s.colour));
    let guarded = at
        .rotors()
        .iter()
        .filter(|r| (r.orbit_set() & knights).len() >= 2)
        .count() as f64;
    let closing: f64 = knights
        .into_iter()
        .map(|k| f64::from(distance_to(k, at.bit()).min(8)))
        .sum();
    let trapped = if draco::trapped(p) { 50.0 } else { 0.0 };
    let dragon_view = -10.0 * f64::from(edge_distance(at, Edge::Bottom)) - 4.0 * guarded
        + 0.2 * closing
        - trapped;
    if me.colour == dragon.colour {
        dragon_view
    } else {
        -dragon_view
    }
}

/// Taurus: the clicks one's nearest men need to fill one's star cluster.
fn taurus(game: &Game, s: SeatInfo) -> f64 {
    let target = taurus::cluster(s.seat);
    let own = game.position().of(s.colour);
    3.0 * (own & target).len() as f64 - filling(own, target, Toward::Missing)
}

/// Bootes: sheep and dogs on their way to the other's starting places; a dog near a stray
/// sheep helps (sheep move only with a dog).
fn bootes(game: &Game, s: SeatInfo) -> f64 {
    let (dog, sheep) = bootes::colours(s.seat);
    let (dog_home, sheep_home) = bootes::home(s.seat.opposite());
    let p = game.position();
    let dogs = p.of(dog);
    let flock = p.of(sheep);
    let strays = flock & !sheep_home;
    let herding: f64 = strays
        .into_iter()
        .map(|sheep| {
            dogs.into_iter()
                .map(|d| distance_to(d, sheep.bit()))
                .min()
                .map_or(0.0, |d| f64::from(d.min(6)))
        })
        .sum();
    // Weights tried offline against a random bot: a dog that keeps near the strays shortens
    // the game most (median 129 actions, 90% under 272, in 80 games).
    4.0 * (flock & sheep_home).len() as f64 + 2.0 * (dogs & dog_home).len() as f64
        - 3.0 * filling(flock, sheep_home, Toward::Any)
        - filling(dogs, dog_home, Toward::Any)
        - 1.5 * herding
}
