//! Elements, orbs and what happens when two orbs meet: opposite elements (fire–water,
//! earth–air) remove each other, neighbouring ones remove the weaker (fire burns air, air
//! evaporates water, water erodes earth, earth smothers fire), void removes both.

use crate::seat::Colour;
use std::fmt;

/// The element of an orb.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[repr(u8)]
pub enum Element {
    /// `F`: burns air, smothered by earth, opposite water.
    Fire = 0,
    /// `W`: erodes earth, evaporated by air, opposite fire.
    Water = 1,
    /// `E`: smothers fire, eroded by water, opposite air.
    Earth = 2,
    /// `A`: evaporates water, burnt by fire, opposite earth.
    Air = 3,
    /// `V` (room option): the opposite of every element, itself included.
    Void = 4,
}

impl Element {
    /// All five elements.
    pub const ALL: [Element; 5] = [
        Element::Fire,
        Element::Water,
        Element::Earth,
        Element::Air,
        Element::Void,
    ];

    /// The letter in orb tokens: `F`, `W`, `E`, `A`, `V`.
    pub const fn letter(self) -> char {
        match self {
            Element::Fire => 'F',
            Element::Water => 'W',
            Element::Earth => 'E',
            Element::Air => 'A',
            Element::Void => 'V',
        }
    }

    /// The element with this letter (either case).
    pub fn from_letter(letter: char) -> Option<Element> {
        Element::ALL
            .into_iter()
            .find(|e| e.letter() == letter.to_ascii_uppercase())
    }

    /// Lower-case English name.
    pub const fn name(self) -> &'static str {
        match self {
            Element::Fire => "fire",
            Element::Water => "water",
            Element::Earth => "earth",
            Element::Air => "air",
            Element::Void => "void",
        }
    }

    /// The element this one removes when they meet and it survives (fire burns air, air
    /// evaporates water, water erodes earth, earth smothers fire); `None` for void.
    pub const fn beats(self) -> Option<Element> {
        match self {
            Element::Fire => Some(Element::Air),
            Element::Air => Some(Element::Water),
            Element::Water => Some(Element::Earth),
            Element::Earth => Some(Element::Fire),
            Element::Void => None,
        }
    }

    /// What happens when an orb of this element moves onto one of `defender`'s.
    pub fn clash(self, defender: Element) -> Clash {
        use Element::Void;
        if self == Void || defender == Void {
            Clash::Both
        } else if self == defender {
            Clash::Illegal
        } else if self.beats() == Some(defender) {
            Clash::MoverWins
        } else if defender.beats() == Some(self) {
            Clash::DefenderWins
        } else {
            Clash::Both
        }
    }
}

impl fmt::Display for Element {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The result of an orb moving onto an enemy orb.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Clash {
    /// Same element (not void): the move is illegal.
    Illegal,
    /// Opposite elements, or void in the meeting: both orbs are removed.
    Both,
    /// The mover's element beats the defender's: the defender is removed and the mover
    /// takes its hole.
    MoverWins,
    /// The defender's element beats the mover's: the mover is removed, the defender stays.
    DefenderWins,
}

/// One orb: a colour (whose it is) and an element. Token `RF` is a red fire orb.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Orb {
    /// Whose orb it is.
    pub colour: Colour,
    /// What it is made of.
    pub element: Element,
}

impl Orb {
    /// An orb of `colour` and `element`.
    pub const fn new(colour: Colour, element: Element) -> Orb {
        Orb { colour, element }
    }

    /// Parses a token: colour letter then element letter, `RF`.
    pub fn parse(token: &str) -> Option<Orb> {
        let mut chars = token.chars();
        let colour = Colour::from_letter(chars.next()?)?;
        let element = Element::from_letter(chars.next()?)?;
        chars.next().is_none().then_some(Orb { colour, element })
    }
}

impl fmt::Display for Orb {
    /// The token, `RF`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.colour.letter(), self.element.letter())
    }
}
