//! A game's command as the game's own type, behind an erased box: what imagined games are
//! played with. A bot's search plays thousands of commands a move; as JSON values each one was
//! written out (a map per command, for every listed command at every step), compared field by
//! field and read back, which took most of a search's time. A typed command is cloned, compared
//! and applied as the game's own value (see [`crate::DynGame::typed_commands`] and
//! [`crate::DynGame::play_typed`]).

use std::any::Any;
use std::fmt::Debug;

use serde::Serialize;
use serde_json::Value;

/// One command of some kind, typed. Two are equal when they are the same kind's command and
/// equal as such.
pub struct TypedCommand(Box<dyn CommandObject>);

trait CommandObject: Debug {
    fn clone_box(&self) -> Box<dyn CommandObject>;
    fn as_any(&self) -> &dyn Any;
    fn same(&self, other: &dyn CommandObject) -> bool;
    fn to_value(&self) -> Value;
}

impl<T: Clone + PartialEq + Debug + Serialize + 'static> CommandObject for T {
    fn clone_box(&self) -> Box<dyn CommandObject> {
        Box::new(self.clone())
    }
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn same(&self, other: &dyn CommandObject) -> bool {
        other.as_any().downcast_ref::<T>() == Some(self)
    }
    fn to_value(&self) -> Value {
        serde_json::to_value(self).expect("commands serialize")
    }
}

impl TypedCommand {
    pub fn new<T: Clone + PartialEq + Debug + Serialize + 'static>(command: T) -> Self {
        TypedCommand(Box::new(command))
    }

    /// The command as its kind's type, if it is one of that kind's.
    pub fn downcast<T: 'static>(&self) -> Option<&T> {
        self.0.as_any().downcast_ref::<T>()
    }

    /// The command as JSON, as the game's `legal_commands` lists it.
    pub fn to_value(&self) -> Value {
        self.0.to_value()
    }
}

impl Clone for TypedCommand {
    fn clone(&self) -> Self {
        TypedCommand(self.0.clone_box())
    }
}

impl PartialEq for TypedCommand {
    fn eq(&self, other: &Self) -> bool {
        self.0.same(other.0.as_ref())
    }
}

impl Debug for TypedCommand {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}
