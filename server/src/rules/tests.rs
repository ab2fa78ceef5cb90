//! The rules pages against the catalogue and the engine: every game has one, built from its
//! own section of `docs/rules.md` and the shared ones, and every diagram's position is one the
//! engine sets up.

use super::*;

fn systems() -> &'static [Arc<dyn GameSystem>] {
    static SYSTEMS: std::sync::OnceLock<Vec<Arc<dyn GameSystem>>> = std::sync::OnceLock::new();
    SYSTEMS.get_or_init(crate::systems::all)
}

#[test]
fn every_game_of_the_catalogue_has_a_rules_page_and_no_puzzle_has_one() {
    let with_page: Vec<&str> = games(systems()).iter().map(|(_, g)| g.id).collect();
    for system in systems() {
        for game in system.games() {
            assert_eq!(
                with_page.contains(&game.id),
                !game.solo,
                "{}: a page for every game, none for a puzzle",
                game.id
            );
        }
    }
    for id in ["hydra-2", "orbit", "orbs", "algol", "libra", "bootes"] {
        assert!(!missing(&format!("/rules/{id}"), systems()), "{id}");
    }
    assert!(missing("/rules/chess", systems()));
    assert!(!missing("/rules", systems()));
}

#[test]
fn the_shared_sections_named_here_are_in_the_rules() {
    let source = Source::split(RULES);
    for title in ORION_SHARED.iter().chain(&EVERY_GAME) {
        assert!(
            source.titled(title).is_some(),
            "docs/rules.md has `## {title}`"
        );
    }
}

#[test]
fn a_page_holds_its_games_own_rules_and_the_ones_its_system_shares() {
    let all = games(systems());
    let find = |id: &str| all.iter().find(|(_, g)| g.id == id).expect(id);
    let (system, hydra) = find("hydra-2");
    let html = page(system, hydra).expect("hydra-2's page").html;
    assert!(html.contains("First chain from one"), "its own section");
    assert!(
        html.contains("<h2>The five basic rules</h2>"),
        "ORION's rules"
    );
    assert!(html.contains("<h2>Leaving a game in progress</h2>"));
    assert!(!html.contains("staircase"), "not another game's section");
    let (system, orbs) = find("orbs");
    let html = page(system, orbs).expect("orbs' page").html;
    assert!(html.contains("evaporates water"), "{html}");
    assert!(
        !html.contains("The five basic rules"),
        "ORION's rules are not Orbs'"
    );
}

#[test]
fn every_diagram_is_a_position_the_engine_sets_up() {
    let mut diagrams = 0;
    for (system, game) in games(systems()) {
        let page = page(system, game).unwrap_or_else(|e| panic!("{}: {e}", game.id));
        for figure in &page.figures {
            let start = crate::lessons::position(systems(), &figure.setup)
                .unwrap_or_else(|e| panic!("{}: `{}`: {e}", game.id, figure.caption));
            let position = start["snapshot"]["position"].as_str().unwrap_or_default();
            assert!(!position.is_empty(), "{}: `{}`", game.id, figure.caption);
            diagrams += 1;
        }
        assert!(!page.figures.is_empty(), "{} has a diagram", game.id);
    }
    assert!(diagrams >= 20, "{diagrams} diagrams");
}
