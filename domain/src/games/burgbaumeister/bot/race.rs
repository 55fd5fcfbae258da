//! The base game reduced to what decides it, for playing it forward by the thousand: each
//! wall's length and last card, the store's cards everybody has seen (a returned card is known
//! to all: the log is public) and those nobody has. Which slot a card lies in no longer
//! matters once it is known (any player can turn it up again), and the unseen slots are all
//! alike, so the store is two bags of numbers. The unseen cards come up in the order of
//! `unseen` from its end: shuffling it is one guess of the hidden layout.

use crate::games::burgbaumeister::{Card, WALL_TO_WIN};

/// The most seats the game has.
pub const MAX_SEATS: usize = 4;
/// The start tower's value: the last card of an empty wall.
pub const TOWER: Card = 1;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Race {
    pub players: u8,
    /// The seat whose turn it is.
    pub turn: u8,
    /// Cards in each seat's wall (the start tower not counted).
    pub count: [u8; MAX_SEATS],
    /// Each wall's last card ([`TOWER`] for an empty one).
    pub last: [Card; MAX_SEATS],
    /// Store cards that were turned up and returned: everybody knows where they lie.
    pub known: Vec<Card>,
    /// Store cards nobody has seen, drawn from the end.
    pub unseen: Vec<Card>,
}

/// How a turn went, for the one who played it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    Running,
    /// The game is over; the seat won it (the base game has no shared wins).
    Won(u8),
}

impl Race {
    /// Cards `seat` still needs.
    pub fn need(&self, seat: u8) -> u8 {
        WALL_TO_WIN as u8 - self.count[seat as usize]
    }

    /// The lowest known card `seat` could add, if any.
    pub fn lowest_fitting_known(&self, seat: u8) -> Option<Card> {
        let last = self.last[seat as usize];
        self.known.iter().copied().filter(|&c| c > last).min()
    }

    /// The seat to act adds `card` (which lies in the store) to its wall and ends its turn.
    pub fn add(&mut self, card: Card) -> Ended {
        if let Some(at) = self.known.iter().position(|&c| c == card) {
            self.known.swap_remove(at);
        } else if let Some(at) = self.unseen.iter().position(|&c| c == card) {
            self.unseen.swap_remove(at);
        }
        let seat = self.turn as usize;
        self.count[seat] += 1;
        self.last[seat] = card;
        if usize::from(self.count[seat]) >= WALL_TO_WIN {
            return Ended::Won(self.turn);
        }
        self.pass()
    }

    /// The seat to act ends its turn without adding a card (it returned the card it turned up).
    pub fn pass(&mut self) -> Ended {
        if self.blocked() {
            return Ended::Won(self.leader());
        }
        self.turn = (self.turn + 1) % self.players;
        Ended::Running
    }

    /// The next unseen card, turned up by the seat to act; it is known from now on (it stays
    /// in the store until it joins a wall). `None` once every card has been seen.
    pub fn draw(&mut self) -> Option<Card> {
        let card = self.unseen.pop()?;
        self.known.push(card);
        Some(card)
    }

    /// No seat can add any card left in the store: every store card is at most the lowest
    /// last card.
    pub fn blocked(&self) -> bool {
        let lowest = (0..self.players as usize)
            .map(|s| self.last[s])
            .min()
            .unwrap_or(TOWER);
        let highest = self.known.iter().chain(&self.unseen).copied().max();
        highest.is_none_or(|h| h <= lowest)
    }

    /// The winner of a blocked game: the most cards, then the highest last card.
    pub fn leader(&self) -> u8 {
        (0..self.players)
            .max_by_key(|&s| (self.count[s as usize], self.last[s as usize]))
            .unwrap_or(0)
    }
}
