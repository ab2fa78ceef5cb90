//! The `ev` of an `event` message: one state change of a room, tagged by `kind`. Text fields
//! are `Cow<str>` so a server can serialize an event straight from borrowed data, once for
//! every member, without building a `serde_json::Value`; a client reads `Event<'static>`.

use crate::fields;
use crate::room::{GameResult, Millis, Turn};
use crate::seat::Seat;
use crate::standing::RatingChange;
use crate::systems::{OrbitMove, OrbsMove, TurnParts};
use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;

/// Text on the wire: borrowed when serialized by a server, owned when read.
pub type Text<'a> = Cow<'a, str>;

/// One event of a room's history.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Event<'a> {
    /// A player took a seat.
    Joined {
        /// The seat.
        seat: Seat,
        /// Player id.
        player: Text<'a>,
        /// Display name.
        name: Text<'a>,
        /// His rating in this game, if he has claimed his name (guests have none); a
        /// computer player's is its level's (`bot`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rating: Option<i32>,
        /// A computer player: its level, 1 to 8 (an addition: README).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        bot: Option<u8>,
    },
    /// A seated player said he is ready to start (an addition: README). Not stored by
    /// rooms made before it existed; the start needs every seat ready.
    Ready {
        /// The seat.
        seat: Seat,
    },
    /// A seat was given up.
    Left {
        /// The seat.
        seat: Seat,
    },
    /// The game started.
    Start {
        /// The position string.
        position: Text<'a>,
        /// The first turn.
        turn: Turn,
        /// SHA-256 of the room's seed and a salt, in hex, revealed by `over`'s `seed` and
        /// `salt` (rooms whose start is drawn at random).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seed_commitment: Option<Text<'a>>,
        /// Whether the game is rated (decided as it starts: see `RoomOptions::rated`);
        /// absent in puzzle rooms and rooms started before ratings existed.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rated: Option<bool>,
    },
    /// A rotor turned.
    Click {
        /// Who clicked.
        seat: Seat,
        /// The click (`C4R`).
        click: Text<'a>,
        /// The position string after it.
        position: Text<'a>,
    },
    /// A piece was placed, or moved from another slot.
    Place {
        /// Who placed it.
        seat: Seat,
        /// Where.
        slot: Text<'a>,
        /// The piece token (`R5`).
        piece: Text<'a>,
        /// The slot it came from; `null`: from the hand.
        #[serde(deserialize_with = "fields::required")]
        from: Option<Text<'a>>,
        /// The position string after it.
        position: Text<'a>,
    },
    /// The slots the mover may build on.
    Eligible {
        /// Slot names.
        slots: Vec<Text<'a>>,
    },
    /// The die was thrown.
    Roll {
        /// Who threw it.
        seat: Seat,
        /// The face.
        value: u8,
    },
    /// A turn begins, or its clicks became known.
    Turn {
        /// Who moves.
        seat: Seat,
        /// Clicks allowed; `null` while the die or three clicks are to be chosen.
        #[serde(deserialize_with = "fields::required")]
        clicks: Option<u8>,
        /// Round, from 1.
        round: u32,
        /// Clicks made this move, where the system's turn event repeats the whole turn
        /// (Orbit, Orbs: always 0, a move is no click).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        used: Option<u32>,
        /// Each system's own fields (Orbit's phase, colour to drop, prohibited cells).
        #[serde(flatten)]
        systems: TurnParts,
    },
    /// A chain was made.
    Chain {
        /// Its colour letter.
        colour: Text<'a>,
        /// Until when it may be claimed (ms since the epoch); `null`: awarded at once.
        #[serde(deserialize_with = "fields::required")]
        claim_until: Option<Millis>,
    },
    /// A claim was made.
    Claim {
        /// Who claimed.
        seat: Seat,
        /// Whether it won the chain.
        ok: bool,
    },
    /// Pieces were captured.
    Capture {
        /// Who captured.
        seat: Seat,
        /// The slots emptied.
        slots: Vec<Text<'a>>,
        /// Points scored.
        points: u32,
        /// The position string after it.
        position: Text<'a>,
    },
    /// Algol: a seat chose its secret man; only the commitment is public.
    Secret {
        /// Who chose.
        seat: Seat,
        /// SHA-256 of the piece's number and a salt, in hex.
        commitment: Text<'a>,
    },
    /// Algol: a seat challenged a suspect.
    Challenge {
        /// The challenger.
        seat: Seat,
        /// The suspect's piece token.
        piece: Text<'a>,
        /// Whether it was the secret man.
        hit: bool,
        /// The slots emptied.
        removed: Vec<Text<'a>>,
        /// The position string after it.
        position: Text<'a>,
    },
    /// Aquarius: one try of the telepathy test.
    Try {
        /// Who tried.
        seat: Seat,
        /// The click that named the rotor.
        click: Text<'a>,
        /// Whether the rotor held a piece of the chain.
        hit: bool,
        /// The chain the try was made against (slot names), shown only with its try.
        chain: Vec<Text<'a>>,
        /// Tries made.
        tries: u8,
        /// Hits so far.
        hits: u8,
    },
    /// A chat line.
    Chat {
        /// The speaker's seat; `null`: a spectator.
        #[serde(deserialize_with = "fields::required")]
        seat: Option<Seat>,
        /// The speaker's name.
        name: Text<'a>,
        /// The line.
        text: Text<'a>,
        /// A moderator deleted the line: `text` is empty (an addition: README).
        #[serde(default, skip_serializing_if = "fields::is_false")]
        deleted: bool,
        /// The speaker's player id, to report or block him by (an addition: README; absent in
        /// lines stored before it was sent).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        player: Option<Text<'a>>,
    },
    /// A move of another game system (Orbit, Orbs).
    Move {
        /// Who moved.
        seat: Seat,
        /// The system's move text (`h8`, `pass`, `d2-e6`).
        #[serde(rename = "move")]
        mv: Text<'a>,
        /// The position after it, in the system's notation.
        position: Text<'a>,
        /// What the move took off the board.
        removed: Vec<Text<'a>>,
        /// Orbit's: the colour dropped.
        #[serde(flatten)]
        orbit: OrbitMove,
        /// Orbs': the seats the move put out of the game.
        #[serde(flatten)]
        orbs: OrbsMove,
        /// A pass made because the mover's turn clock ran out.
        #[serde(default, skip_serializing_if = "fields::is_false")]
        timeout: bool,
        /// A pass made because the seat had no legal move (Orbs passes such a seat over).
        #[serde(default, skip_serializing_if = "fields::is_false")]
        forced: bool,
    },
    /// Orbs: a draw offered, or accepted (the offer lapses with the next move or pass).
    Draw {
        /// Who offered or accepted.
        seat: Seat,
        /// Whether this accepts the standing offer (`false`: a new offer).
        accept: bool,
        /// Every seat agreeing so far, in turn order.
        agreed: Vec<Seat>,
    },
    /// A finished room: a seat offered, accepted or declined a rematch. When every seat has
    /// accepted, `room` names the new room (same options, seats rotated) where each player
    /// now sits; a decline (or a player leaving) clears every acceptance.
    Rematch {
        /// Who offered, accepted or declined.
        seat: Seat,
        /// Whether this seat wants the rematch.
        accept: bool,
        /// Every seat agreeing so far, in turn order (empty after a decline).
        agreed: Vec<Seat>,
        /// The new room, once every seat has agreed.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        room: Option<Text<'a>>,
    },
    /// A puzzle's solver took back his last click that stands (an addition: README).
    Undo {
        /// The solver's seat.
        seat: Seat,
        /// The click taken back (`C4R`).
        click: Text<'a>,
        /// The position string after it.
        position: Text<'a>,
        /// Clicks that stand now (the count a solve is scored by).
        used: u32,
    },
    /// A puzzle's solver was shown the next click of an optimal line from the position of
    /// the event before (an addition: README).
    Hint {
        /// The solver's seat.
        seat: Seat,
        /// The click (`C4R`).
        click: Text<'a>,
        /// Clicks left on that optimal line, this one included.
        left: u32,
        /// Hints shown in this room so far, this one included.
        hints: u32,
    },
    /// A correspondence room: the mover's turn runs until `at` (ms since the epoch), told as
    /// the turn begins, and again with `warning` when less than a day is left (an addition:
    /// README).
    Deadline {
        /// Who moves.
        seat: Seat,
        /// The round of that turn.
        round: u32,
        /// When his days run out and he loses.
        at: Millis,
        /// The warning that the deadline is near (absent: a new turn's deadline).
        #[serde(default, skip_serializing_if = "fields::is_false")]
        warning: bool,
    },
    /// The game ended.
    Over {
        /// How.
        result: GameResult,
        /// The room's seed, revealed to check `start`'s `seed_commitment`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seed: Option<Seed>,
        /// The salt of the seed commitment, in hex.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        salt: Option<Text<'a>>,
        /// Why, when the game did not end by its rules.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<OverReason>,
        /// With `reason` `time`: the seat that ran out of time; `left`, `away`: the seat that
        /// left or was away.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        seat: Option<Seat>,
        /// A rated game: each account's new rating and its change (guests have none).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ratings: Option<BTreeMap<Seat, RatingChange>>,
        /// ORION games won by a chain: the winning chain on the final board (an addition:
        /// README).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        chain: Option<WinningChain>,
    },
}

/// The chain that won a game: its slots, and the edges it joins, as compass words
/// (`south` … `north`), so a page can say "a chain from south to north" knowing no board.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WinningChain {
    /// The chain's slots (`C2n`), in canonical order.
    pub slots: Vec<String>,
    /// The edge it starts from (the winner's own).
    pub from: String,
    /// The edge it reaches.
    pub to: String,
}

impl Event<'_> {
    /// The event's `kind` on the wire.
    pub fn kind(&self) -> &'static str {
        match self {
            Event::Joined { .. } => "joined",
            Event::Left { .. } => "left",
            Event::Ready { .. } => "ready",
            Event::Start { .. } => "start",
            Event::Click { .. } => "click",
            Event::Place { .. } => "place",
            Event::Eligible { .. } => "eligible",
            Event::Roll { .. } => "roll",
            Event::Turn { .. } => "turn",
            Event::Chain { .. } => "chain",
            Event::Claim { .. } => "claim",
            Event::Capture { .. } => "capture",
            Event::Secret { .. } => "secret",
            Event::Challenge { .. } => "challenge",
            Event::Try { .. } => "try",
            Event::Chat { .. } => "chat",
            Event::Move { .. } => "move",
            Event::Draw { .. } => "draw",
            Event::Rematch { .. } => "rematch",
            Event::Undo { .. } => "undo",
            Event::Hint { .. } => "hint",
            Event::Deadline { .. } => "deadline",
            Event::Over { .. } => "over",
        }
    }

    /// The event as JSON text (the `ev` object).
    pub fn to_json(&self) -> String {
        // Strings, numbers, booleans and string-keyed maps only: serializing cannot fail.
        serde_json::to_string(self).unwrap_or_default()
    }

    /// The same event owning its text.
    pub fn into_owned(self) -> Event<'static> {
        fn o(t: Text<'_>) -> Text<'static> {
            Cow::Owned(t.into_owned())
        }
        fn v(ts: Vec<Text<'_>>) -> Vec<Text<'static>> {
            ts.into_iter().map(o).collect()
        }
        match self {
            Event::Joined {
                seat,
                player,
                name,
                rating,
                bot,
            } => Event::Joined {
                seat,
                player: o(player),
                name: o(name),
                rating,
                bot,
            },
            Event::Left { seat } => Event::Left { seat },
            Event::Deadline {
                seat,
                round,
                at,
                warning,
            } => Event::Deadline {
                seat,
                round,
                at,
                warning,
            },
            Event::Ready { seat } => Event::Ready { seat },
            Event::Start {
                position,
                turn,
                seed_commitment,
                rated,
            } => Event::Start {
                position: o(position),
                turn,
                seed_commitment: seed_commitment.map(o),
                rated,
            },
            Event::Click {
                seat,
                click,
                position,
            } => Event::Click {
                seat,
                click: o(click),
                position: o(position),
            },
            Event::Undo {
                seat,
                click,
                position,
                used,
            } => Event::Undo {
                seat,
                click: o(click),
                position: o(position),
                used,
            },
            Event::Hint {
                seat,
                click,
                left,
                hints,
            } => Event::Hint {
                seat,
                click: o(click),
                left,
                hints,
            },
            Event::Place {
                seat,
                slot,
                piece,
                from,
                position,
            } => Event::Place {
                seat,
                slot: o(slot),
                piece: o(piece),
                from: from.map(o),
                position: o(position),
            },
            Event::Eligible { slots } => Event::Eligible { slots: v(slots) },
            Event::Roll { seat, value } => Event::Roll { seat, value },
            Event::Turn {
                seat,
                clicks,
                round,
                used,
                systems,
            } => Event::Turn {
                seat,
                clicks,
                round,
                used,
                systems,
            },
            Event::Chain {
                colour,
                claim_until,
            } => Event::Chain {
                colour: o(colour),
                claim_until,
            },
            Event::Claim { seat, ok } => Event::Claim { seat, ok },
            Event::Capture {
                seat,
                slots,
                points,
                position,
            } => Event::Capture {
                seat,
                slots: v(slots),
                points,
                position: o(position),
            },
            Event::Secret { seat, commitment } => Event::Secret {
                seat,
                commitment: o(commitment),
            },
            Event::Challenge {
                seat,
                piece,
                hit,
                removed,
                position,
            } => Event::Challenge {
                seat,
                piece: o(piece),
                hit,
                removed: v(removed),
                position: o(position),
            },
            Event::Try {
                seat,
                click,
                hit,
                chain,
                tries,
                hits,
            } => Event::Try {
                seat,
                click: o(click),
                hit,
                chain: v(chain),
                tries,
                hits,
            },
            Event::Chat {
                seat,
                name,
                text,
                deleted,
                player,
            } => Event::Chat {
                seat,
                name: o(name),
                text: o(text),
                deleted,
                player: player.map(o),
            },
            Event::Move {
                seat,
                mv,
                position,
                removed,
                orbit,
                orbs,
                timeout,
                forced,
            } => Event::Move {
                seat,
                mv: o(mv),
                position: o(position),
                removed: v(removed),
                orbit,
                orbs,
                timeout,
                forced,
            },
            Event::Draw {
                seat,
                accept,
                agreed,
            } => Event::Draw {
                seat,
                accept,
                agreed,
            },
            Event::Rematch {
                seat,
                accept,
                agreed,
                room,
            } => Event::Rematch {
                seat,
                accept,
                agreed,
                room: room.map(o),
            },
            Event::Over {
                result,
                seed,
                salt,
                reason,
                seat,
                ratings,
                chain,
            } => Event::Over {
                result,
                seed,
                salt: salt.map(o),
                reason,
                seat,
                ratings,
                chain,
            },
        }
    }
}

/// Why a game ended other than by its rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OverReason {
    /// A seat ran out of time (`over` then names it in `seat`).
    Time,
    /// Every seat was given up.
    Abandoned,
    /// A rated game ended before every player had made a move of his own (a player left,
    /// was away past his seat hold, or let his clock run out first): no winner, unrated.
    Aborted,
    /// The player of the seat in `seat` left the game in progress: he resigned, and his side
    /// lost (an addition: README; what it means per game: `docs/rules.md`).
    Left,
    /// The player of the seat in `seat` was away past his seat hold: he lost as if he had
    /// left (an addition: README).
    Away,
}

/// A room's random seed, sent as a decimal string (a `u64` does not fit a JSON number
/// exactly in every reader).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Seed(pub u64);

impl Serialize for Seed {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for Seed {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Seed, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Seed;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a seed: a decimal string")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Seed, E> {
                v.parse()
                    .map(Seed)
                    .map_err(|_| E::invalid_value(de::Unexpected::Str(v), &self))
            }
        }
        deserializer.deserialize_str(V)
    }
}
