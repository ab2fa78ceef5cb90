//! The directory of live rooms, by id and by invite code: a small trait, so rooms can later be
//! found across server nodes.

use crate::player::RoomId;
use crate::room::handle::RoomHandle;
use dashmap::DashMap;
use std::sync::Arc;

/// Most live rooms at once (the default of `Config::max_rooms`); `create` beyond it is
/// refused with `full`.
pub const MAX_ROOMS: usize = 10_000;

/// The directory of live rooms.
pub trait Directory: Send + Sync + 'static {
    /// Adds a room; false when the directory is full.
    fn insert(&self, room: RoomHandle) -> bool;
    /// The room with this id.
    fn get(&self, id: &str) -> Option<RoomHandle>;
    /// The private room with this invite code.
    fn by_code(&self, code: &str) -> Option<RoomHandle>;
    /// Forgets a room whose task has ended.
    fn remove(&self, id: &str);
}

/// The directory in this process.
#[derive(Debug)]
pub struct LocalDirectory {
    /// Most rooms it holds.
    capacity: usize,
    /// Rooms by id.
    rooms: DashMap<RoomId, RoomHandle>,
    /// Room ids by invite code.
    codes: DashMap<Arc<str>, RoomId>,
}

impl LocalDirectory {
    /// An empty directory for at most `capacity` rooms.
    pub fn new(capacity: usize) -> LocalDirectory {
        LocalDirectory {
            capacity,
            rooms: DashMap::new(),
            codes: DashMap::new(),
        }
    }
}

impl Directory for LocalDirectory {
    fn insert(&self, room: RoomHandle) -> bool {
        if self.rooms.len() >= self.capacity {
            return false;
        }
        if let Some(code) = &room.code {
            self.codes.insert(code.clone(), room.id.clone());
        }
        self.rooms.insert(room.id.clone(), room);
        true
    }

    fn get(&self, id: &str) -> Option<RoomHandle> {
        self.rooms.get(id).map(|r| r.clone())
    }

    fn by_code(&self, code: &str) -> Option<RoomHandle> {
        let id = self.codes.get(code)?.clone();
        self.get(&id)
    }

    fn remove(&self, id: &str) {
        if let Some((_, room)) = self.rooms.remove(id) {
            if let Some(code) = room.code {
                self.codes.remove(&code);
            }
        }
    }
}
