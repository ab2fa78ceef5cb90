//! Every game of the booklet is offered by the server: a room of each can be created (and is
//! listed in the lobby, waiting for players), and a quick match in each fills a room and
//! starts the game on the game's own starting board.

use orion_engine::{games, parse_position, Game, Options};
use orion_tests::TestServer;
use serde_json::json;

#[tokio::test]
async fn every_game_can_be_created_and_quick_matched() {
    let server = TestServer::start();
    for rules in games::ALL {
        let game = rules.id();
        // A player holds seats in a few rooms only: a fresh host for each game.
        let mut host = server.player(&format!("host-{game}")).await;
        let joined = host.request(json!({"t": "create", "game": game})).await;
        assert_eq!(joined["t"], "joined", "create {game}: {joined}");

        let players = rules.default_players();
        let mut queue = Vec::new();
        for i in 0..players {
            queue.push(server.player(&format!("{game}-{i}")).await);
        }
        for p in &mut queue {
            let q = p.request(json!({"t": "quick", "game": game})).await;
            assert_eq!(q["t"], "queued", "quick {game}: {q}");
            assert_eq!(q["game"], game);
            assert_eq!(q["players"], players);
        }
        let mut rooms = Vec::new();
        for p in &mut queue {
            let j = p.expect_t("joined").await;
            rooms.push(j["room"].as_str().unwrap_or_default().to_string());
        }
        assert!(
            rooms.iter().all(|r| *r == rooms[0]),
            "{game}: one room for the whole match: {rooms:?}"
        );
        let start = queue[0].expect_event(&rooms[0], "start").await;
        let board = parse_position(start["ev"]["position"].as_str().unwrap_or_default())
            .unwrap_or_else(|e| panic!("{game}: start position: {e}"));
        let options = Options {
            players: Some(players),
            ..Options::default()
        };
        let own_start = *Game::new(*rules, options, 1)
            .unwrap_or_else(|e| panic!("{game}: {e}"))
            .position();
        assert_eq!(
            board.occupied().len(),
            own_start.occupied().len(),
            "{game}: the match starts on the game's board"
        );
        assert!(
            start["ev"]["turn"]["seat"].is_string(),
            "{game}: someone moves first: {start}"
        );
    }
    let mut watcher = server.player("watcher").await;
    let lobby = watcher.request(json!({"t": "lobby"})).await;
    let rooms = lobby["rooms"].as_array().cloned().unwrap_or_default();
    for rules in games::ALL {
        assert!(
            rooms
                .iter()
                .any(|r| r["game"] == rules.id() && r["status"] == "waiting"),
            "the created {} room is listed: {lobby}",
            rules.id()
        );
    }
}
