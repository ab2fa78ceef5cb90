//! The public room list that `lobby` requests read and watchers follow: each room's summary,
//! rebuilt at most every [`LISTING_EVERY`] and sent in pages.

use super::Lobby;
use crate::player::RoomId;
use crate::protocol::{Frame, ReplyTo};
use orion_protocol::{Message, Reply, Waiting};
use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::watch;

/// Watchers get at most one new list per this interval: with thousands of rooms changing, the
/// list is rebuilt a few times a second instead of once per change.
pub const LISTING_EVERY: Duration = Duration::from_millis(100);
/// Most rooms in one `lobby` message; the rest is asked for with `after` (watchers are sent
/// the first page, with `total` saying how many rooms are listed in all).
pub const LOBBY_PAGE_ROOMS: usize = 100;
/// Most bytes of room summaries in one `lobby` message (a summary is a few hundred bytes:
/// options and names are bounded), far below the largest frame a client is sent.
pub const LOBBY_PAGE_BYTES: usize = 32 * 1024;

/// A room's line in the lobby.
#[derive(Clone, Debug)]
pub(super) struct Listing {
    /// `waiting`, `playing` or `finished`.
    status: &'static str,
    /// Unlisted rooms count in metrics but are not shown.
    private: bool,
    /// The room summary object of the protocol, serialized.
    summary: Arc<str>,
}

/// The public room list: each listed room's id and serialized summary, in id order.
pub type PublicList = Vec<(RoomId, Arc<str>)>;

/// The listings and when the public list was last rebuilt from them.
#[derive(Debug, Default)]
pub(super) struct Listings {
    /// Every live room's listing, in id order.
    by_room: BTreeMap<RoomId, Listing>,
    /// A listing changed since the last rebuild.
    dirty: bool,
    /// When the public list was last rebuilt.
    built: Option<Instant>,
    /// Who waits for a quick match, as last counted ([`Lobby::refresh_waiting`]).
    waiting: Vec<Waiting>,
}

impl Lobby {
    /// A `lobby` reply: the page of the current public list after room `after` (rebuilt
    /// first if a room changed since).
    pub fn page(&self, after: Option<&str>, re: &ReplyTo) -> Frame {
        self.flush();
        let list = self.listing.borrow().0.clone();
        let waiting = (self.listings.lock()).map_or_else(|_| Vec::new(), |l| l.waiting.clone());
        lobby_page(&list, after, re, &waiting)
    }

    /// Counts again who waits for a quick match (after a `quick`, an `unqueue`, a queued
    /// connection gone, a `lobby` request); watchers get the new list if the counts changed.
    /// On a cluster the queue is the database's, so a count made on one node shows players
    /// queued on every node; watchers on the other nodes see it with their next list.
    pub async fn refresh_waiting(&self) {
        let waiting = self.matchmaker.waiting().await;
        let Ok(mut all) = self.listings.lock() else {
            return;
        };
        if all.waiting != waiting {
            all.waiting = waiting;
            self.changed(&mut all);
        }
    }

    /// Follows the room list.
    pub fn watch(&self) -> watch::Receiver<(Arc<PublicList>, Frame)> {
        self.listing.subscribe()
    }

    /// Sets (or, with `None`, removes) a room's listing. Watchers get the new list at once, or
    /// within [`LISTING_EVERY`] when one went out just before.
    pub fn publish(&self, id: &RoomId, listing: Option<(&'static str, bool, String)>) {
        let Ok(mut all) = self.listings.lock() else {
            return;
        };
        let public = match listing {
            Some((status, private, summary)) => {
                let summary: Arc<str> = Arc::from(summary);
                all.by_room.insert(
                    id.clone(),
                    Listing {
                        status,
                        private,
                        summary: summary.clone(),
                    },
                );
                (!private).then_some(summary)
            }
            None => {
                all.by_room.remove(id);
                None
            }
        };
        if let Some(peers) = &self.peers {
            peers.listed(id, public);
        }
        self.changed(&mut all);
    }

    /// The other servers' rooms changed: watchers get the new list at once, or within
    /// [`LISTING_EVERY`] when one went out just before.
    pub fn peers_changed(&self) {
        if let Ok(mut all) = self.listings.lock() {
            self.changed(&mut all);
        }
    }

    fn changed(&self, all: &mut Listings) {
        all.dirty = true;
        if all.built.is_none_or(|t| t.elapsed() >= LISTING_EVERY) {
            self.rebuild(all);
        } else {
            self.flush.notify_one();
        }
    }

    /// Publishes a listing change held back by [`Lobby::publish`], if any is left.
    pub fn flush(&self) {
        if let Ok(mut all) = self.listings.lock() {
            if all.dirty {
                self.rebuild(&mut all);
            }
        }
    }

    fn rebuild(&self, all: &mut Listings) {
        let own = (all.by_room.iter())
            .filter(|(_, l)| !l.private)
            .map(|(id, l)| (id.clone(), l.summary.clone()));
        let list: PublicList = match &self.peer_list {
            None => own.collect(),
            Some(peers) => merge(own, &peers.borrow()),
        };
        all.dirty = false;
        all.built = Some(Instant::now());
        let frame = lobby_page(&list, None, &None, &all.waiting);
        self.listing.send_replace((Arc::new(list), frame));
    }

    /// Live rooms by status, for metrics.
    pub fn counts(&self) -> Vec<(&'static str, usize)> {
        let mut counts = vec![("waiting", 0), ("playing", 0), ("finished", 0)];
        if let Ok(all) = self.listings.lock() {
            for l in all.by_room.values() {
                if let Some(c) = counts.iter_mut().find(|c| c.0 == l.status) {
                    c.1 += 1;
                }
            }
        }
        counts
    }
}

/// This server's public rooms and the other servers', in id order; a room listed by both (it
/// has just moved here) is shown once, as this server lists it.
fn merge(own: impl Iterator<Item = (RoomId, Arc<str>)>, peers: &PublicList) -> PublicList {
    let mut list = PublicList::with_capacity(peers.len());
    let mut theirs = peers.iter().peekable();
    for (id, summary) in own {
        while let Some((other, s)) = theirs.next_if(|(other, _)| **other <= *id) {
            if **other < *id {
                list.push((other.clone(), s.clone()));
            }
        }
        list.push((id, summary));
    }
    list.extend(theirs.cloned());
    list
}

/// A `lobby` message: the rooms of `list` after room `after`, as many as fit in a page, with
/// `more` (ask again with `after` set to the last room shown), `total` (rooms listed) and
/// `waiting` (who waits for a quick match; left out when nobody does).
pub(super) fn lobby_page(
    list: &PublicList,
    after: Option<&str>,
    re: &ReplyTo,
    waiting: &[Waiting],
) -> Frame {
    let start = after.map_or(0, |a| list.partition_point(|(id, _)| &**id <= a));
    // The page: as many summaries as fit, counting their commas.
    let mut shown = 0;
    let mut bytes = 0;
    for (_, summary) in &list[start..] {
        if shown == LOBBY_PAGE_ROOMS || (shown > 0 && bytes + summary.len() > LOBBY_PAGE_BYTES) {
            break;
        }
        bytes += summary.len() + 1;
        shown += 1;
    }
    let more = start + shown < list.len();
    // The message is the crate's `lobby`, its `rooms` joined in from the summaries as they
    // were serialized when each room last changed.
    let header = Reply::new(
        Message::Lobby {
            rooms: Vec::new(),
            more: Some(more),
            total: Some(u32::try_from(list.len()).unwrap_or(u32::MAX)),
            waiting: (!waiting.is_empty()).then(|| waiting.to_vec()),
        },
        re.clone(),
    )
    .to_json();
    let rooms = "\"rooms\":[";
    let Some(at) = header.find(rooms).map(|i| i + rooms.len()) else {
        return Frame::from(header);
    };
    let mut out = String::with_capacity(header.len() + bytes);
    out.push_str(&header[..at]);
    for (i, (_, summary)) in list[start..start + shown].iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(summary);
    }
    out.push_str(&header[at..]);
    Frame::from(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(rooms: &[(&str, &str)]) -> PublicList {
        (rooms.iter())
            .map(|(id, s)| (RoomId::from(*id), Arc::from(*s)))
            .collect()
    }

    #[test]
    fn the_other_servers_rooms_are_merged_in_id_order_and_a_room_listed_by_both_is_shown_once() {
        let own = list(&[("r2", "own two"), ("r4", "own four")]);
        let peers = list(&[
            ("r1", "one"),
            ("r2", "their two"),
            ("r3", "three"),
            ("r5", "five"),
        ]);
        let merged = merge(own.into_iter(), &peers);
        assert_eq!(
            merged,
            list(&[
                ("r1", "one"),
                ("r2", "own two"),
                ("r3", "three"),
                ("r4", "own four"),
                ("r5", "five")
            ])
        );
        assert_eq!(merge(Vec::new().into_iter(), &peers), peers);
    }
}
