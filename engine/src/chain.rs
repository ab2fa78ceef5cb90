//! Hydra chains: a set of one colour's pieces, connected end to end, touching one edge of the
//! board and the opposite edge. Checked after every click for every colour in play.

use crate::board::{Edge, SlotSet};

/// Whether `pieces` hold a chain from `edge` to the opposite edge.
#[inline]
pub fn has_chain(pieces: SlotSet, edge: Edge) -> bool {
    let far = edge.opposite().touching();
    if !pieces.intersects(far) {
        return false;
    }
    let start = pieces & edge.touching();
    if start.is_empty() {
        return false;
    }
    pieces.connected_from(start).intersects(far)
}

/// The pieces of the chain from `edge` to the opposite edge (every piece connected to both
/// edges' touching pieces), or empty when there is none.
pub fn chain_pieces(pieces: SlotSet, edge: Edge) -> SlotSet {
    if !has_chain(pieces, edge) {
        return SlotSet::EMPTY;
    }
    let from_near = pieces.connected_from(pieces & edge.touching());
    from_near & pieces.connected_from(pieces & edge.opposite().touching())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_position;
    use crate::piece::Colour;

    fn red(position: &str) -> SlotSet {
        parse_position(position).unwrap().of(Colour::Red)
    }

    #[test]
    fn a_straight_column_is_a_chain() {
        let p = red("C1w:R1 C2w:R2 C3w:R3 C4w:R4 C5w:R5");
        assert!(has_chain(p, Edge::Bottom));
        assert!(has_chain(p, Edge::Top));
        assert!(!has_chain(p, Edge::Left));
    }

    #[test]
    fn a_chain_may_touch_an_edge_with_a_point_only() {
        // Vertical slots C1w..C5w touch bottom and top with their points; a gap breaks it.
        let p = red("C1w:R1 C2w:R2 C4w:R4 C5w:R5");
        assert!(!has_chain(p, Edge::Bottom));
    }

    #[test]
    fn the_booklet_serpentine_chain() {
        // The earlier server's example winning chain for X.
        let p = red("A1e:R1 A2e:R2 B2e:R3 C2e:R4 C1n:R5 B2n:R6 D2n:R7 D3e:R8 D3n:R9 C4e:R10 C4n:R11 B5e:R12");
        assert!(has_chain(p, Edge::Bottom));
        // Take out the piece at the top (B5e) and the chain is gone.
        let mut q = p;
        q.remove(crate::notation::parse_slot("B5e").unwrap());
        assert!(!has_chain(q, Edge::Bottom));
    }
}
