//! The games the search plays, each an adapter of its engine crate to [`crate::State`]:
//! `orion` (ORION's twelve games, with `orion_eval` and `places` for their evaluation and
//! `auriga_race` for the levels' judgement of Auriga, `auriga_solved` with `auriga_course`
//! for two-player Auriga solved, `orion_plans` for the games whose levels have a plan of
//! their own), `orbit` and `orbs` (with `orbs_eval`,
//! `greedy`'s count, and `orbs_end`, the levels' endgame judgement). The only modules that
//! name an engine.

pub mod auriga_course;
pub mod auriga_race;
pub mod auriga_solved;
pub mod orbit;
pub mod orbs;
pub mod orbs_end;
pub mod orbs_eval;
pub mod orion;
pub mod orion_eval;
pub mod orion_plans;
pub mod places;
