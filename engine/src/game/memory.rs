//! A typed slot for what one game remembers beyond the board (Auriga's laps, Algol's secrets,
//! Lepus's hops, the Aquarius test). The game's file in `games/` defines the type and is the
//! only code that reads it, so the turn machine knows no game's bookkeeping.

use std::any::Any;
use std::fmt;

/// State one game keeps beyond the board: any plain cloneable type.
pub(crate) trait Memory: Any + Send + Sync {
    /// A copy, for `Game: Clone`.
    fn clone_box(&self) -> Box<dyn Memory>;
    /// The value, to be downcast by its game.
    fn as_any(&self) -> &dyn Any;
    /// The value, to be downcast and changed by its game.
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

impl<T: Any + Send + Sync + Clone> Memory for T {
    fn clone_box(&self) -> Box<dyn Memory> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

/// The slot a [`crate::Game`] holds its game's memory in: empty until the game first writes.
#[derive(Default)]
pub(crate) struct MemorySlot(Option<Box<dyn Memory>>);

impl Clone for MemorySlot {
    fn clone(&self) -> Self {
        MemorySlot(self.0.as_deref().map(|m| m.clone_box()))
    }
}

impl fmt::Debug for MemorySlot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0.is_some() {
            "MemorySlot(..)"
        } else {
            "MemorySlot(empty)"
        })
    }
}

impl MemorySlot {
    /// The memory, if the game has written one of type `T`.
    pub(crate) fn get<T: Any>(&self) -> Option<&T> {
        self.0.as_deref()?.as_any().downcast_ref()
    }

    /// The memory of type `T`, made from its default on first use.
    pub(crate) fn get_mut<T: Any + Send + Sync + Clone + Default>(&mut self) -> &mut T {
        let fresh = match self.0.as_deref() {
            Some(m) => !m.as_any().is::<T>(),
            None => true,
        };
        if fresh {
            self.0 = Some(Box::new(T::default()));
        }
        self.0
            .as_deref_mut()
            .and_then(|m| m.as_any_mut().downcast_mut())
            .expect("just set to a T")
    }
}
