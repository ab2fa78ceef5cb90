//! Every game of the booklet is offered by the server: a room of each can be created (and is
//! listed in the lobby, waiting for players), and a quick match in each fills a room and
//! starts the game on the game's own starting board. `GET /catalogue.json` lists them all,
//! from the server's game systems, with the seats, bounds and defaults the page's lobby uses.

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

/// The catalogue as the page reads it (`GET /catalogue.json`).
async fn catalogue(server: &TestServer) -> serde_json::Value {
    let answer = orion_tests::http_get(server.addr, "/catalogue.json").await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(
        answer.contains("content-type: application/json"),
        "{answer}"
    );
    let (_, body) = answer.split_once("\r\n\r\n").expect("a body");
    serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body}"))
}

#[tokio::test]
async fn the_catalogue_lists_every_game_with_its_seats_bounds_and_defaults() {
    let server = TestServer::start();
    let cat = catalogue(&server).await;
    let entry = |id: &str| {
        cat["games"]
            .as_array()
            .and_then(|g| g.iter().find(|g| g["id"] == id))
            .cloned()
            .unwrap_or_else(|| panic!("{id} is not in the catalogue: {cat}"))
    };
    // Every ORION game and puzzle, then Orbit's and Orbs': the server's systems, no more.
    let mut ids: Vec<&str> = games::ALL.iter().map(|r| r.id()).collect();
    ids.extend(games::PUZZLES.iter().map(|r| r.id()));
    ids.extend(["orbit", "orbs"]);
    let listed: Vec<&str> = cat["games"]
        .as_array()
        .expect("games")
        .iter()
        .filter_map(|g| g["id"].as_str())
        .collect();
    assert_eq!(listed, ids);
    // Each ORION game's seats and colours for every player count are the engine's.
    for rules in games::ALL {
        let g = entry(rules.id());
        assert_eq!(g["system"], "orion");
        assert_eq!(g["name"], rules.name());
        assert_eq!(g["puzzle"], false);
        let players = rules.players();
        assert_eq!(g["players"], json!([players.start(), players.end()]), "{g}");
        assert_eq!(g["default_players"], rules.default_players());
        for n in players {
            let seats: Vec<_> = rules
                .seats(n)
                .iter()
                .map(|s| format!("{}:{}", s.seat, s.colour.letter()))
                .collect();
            assert_eq!(
                g["seats"][n.to_string()],
                json!(seats),
                "{} for {n}",
                rules.id()
            );
        }
        // The defaults a room gets with no options, as a created room shows them.
        assert!(g["defaults"]["die"].is_array(), "{g}");
        assert!(g["defaults"]["claim_window"].is_u64(), "{g}");
    }
    let hydra = entry("hydra-2");
    let mut host = server.player("host").await;
    let joined = host
        .request(json!({"t": "create", "game": "hydra-2"}))
        .await;
    let snap = host.expect_t("snapshot").await;
    assert_eq!(joined["t"], "joined", "{joined}");
    for key in ["clicks", "die", "claim_window", "players"] {
        assert_eq!(
            hydra["defaults"][key], snap["options"][key],
            "{key}: {snap}"
        );
    }
    assert_eq!(entry("aquila")["puzzle"], true);
    assert_eq!(entry("aquarius")["leaderboard"], false, "scored by hits");
    assert_eq!(entry("aquila")["leaderboard"], true);
    assert_eq!(entry("orbs")["seats"]["3"], json!(["S:R", "NW:B", "NE:G"]));
    assert_eq!(
        entry("orbit")["seats"]["2"],
        json!(["S:", "N:"]),
        "colours come with the pie"
    );
    assert_eq!(entry("orbit")["players"], json!([2, 2]));
    // Options with their bounds: ORION's clicks, Orbs' position (which sets its opening), and
    // the server's clocks with the seat hold's default.
    let system = |id: &str| {
        cat["systems"]
            .as_array()
            .and_then(|s| s.iter().find(|s| s["id"] == id))
            .cloned()
            .unwrap_or_else(|| panic!("no system {id}: {cat}"))
    };
    let option = |list: &serde_json::Value, name: &str| {
        list.as_array()
            .and_then(|o| o.iter().find(|o| o["name"] == name))
            .cloned()
            .unwrap_or_else(|| panic!("no option {name} in {list}"))
    };
    assert_eq!(
        option(&system("orion")["options"], "clicks"),
        json!({"name": "clicks", "label": "clicks", "kind": "number", "min": 1, "max": 6,
               "help": "how many clicks (quarter turns) a player makes each turn"})
    );
    assert_eq!(
        option(&system("orbs")["options"], "position")["implies"],
        json!(["opening", "position"])
    );
    let hold = option(&cat["options"], "seat_hold");
    assert_eq!(hold["default"], 120_000, "{hold}");
    assert_eq!(option(&cat["options"], "turn_clock")["min"], 1_000);
}
