//! Orbit's own fields in the shared messages (seed 002): the turn's phase and the colour to
//! drop with the cells it may not take (in `turn` of a snapshot, `start` and the `turn`
//! event alike), each colour's prohibited cells and territory in the snapshot, the territory
//! in the result, and the colour a `move` dropped.

use crate::fields;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Orbit's part of a [`Turn`](crate::Turn) and of the `turn` event.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrbitTurn {
    /// The turn's phase (`opening`, `choice`, `play`, `over`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phase: Option<String>,
    /// The colour to drop (`null`: no drop due). Absent in other systems.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        deserialize_with = "fields::tristate"
    )]
    pub colour: Option<Option<String>>,
    /// Empty cells the colour to drop may not take.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prohibited: Option<Vec<String>>,
    /// The opening: which drop of the opening this is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub drop: Option<u32>,
}

/// Orbit's part of a [`Snapshot`](crate::Snapshot).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrbitSnapshot {
    /// Empty cells each colour may not drop on (`{"B": [..], "W": [..]}`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prohibited: Option<BTreeMap<String, Vec<String>>>,
    /// Territory by colour.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub territory: Option<BTreeMap<String, u32>>,
}

/// Orbit's part of a [`GameResult`](crate::GameResult).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrbitResult {
    /// Territory by colour (`{"B": 40, "W": 41}`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub territory: Option<BTreeMap<String, u32>>,
}

/// Orbit's part of a `move` event.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OrbitMove {
    /// The colour dropped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub colour: Option<String>,
}
