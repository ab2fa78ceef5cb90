//! Upgrading a cluster without stopping its games: three `orion-node` processes on a real
//! PostgreSQL and NATS, games played on them (two players and a spectator each, spread over
//! the nodes), and every node in turn stopped with `SIGTERM` and started again, as a rolling
//! restart does. Each stopping node hands its rooms to the others (no room waits for a lease
//! to lapse: no failover), closes its connections with 1012, and exits 0; the clients
//! reconnect to another node at once and resume. Every game goes on, and every member saw
//! every stored event once, in order. Prints the longest pause each game saw (an `end_turn`
//! sent until its event came back): BENCHMARKS.md. `ORION_ROLLING_GAMES=100` runs it at the
//! scale measured there (3 by default).

use orion_tests::cluster::start_cluster;
use orion_tests::nemesis::{check_room, Game, Urls};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::watch;

const NODE: &str = env!("CARGO_BIN_EXE_orion-node");

/// Passes every game makes between two restarts, and after the last.
const PASSES_BETWEEN: u64 = 4;

/// A counter of `orion_…` in a node's `/metrics` (0 if absent).
async fn counter(addr: std::net::SocketAddr, name: &str) -> u64 {
    let metrics = orion_tests::http_get(addr, "/metrics").await;
    metrics
        .lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' '))
        .and_then(|n| n.parse().ok())
        .unwrap_or(0)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rolling_restart_of_every_node_loses_no_event_and_stops_no_game() {
    let games: usize = std::env::var("ORION_ROLLING_GAMES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(3);
    let (pg, _nats, mut nodes) = start_cluster(NODE, ["a", "b", "c"]);
    let urls: Urls = Arc::new(Mutex::new(nodes.iter().map(|n| n.url()).collect()));
    let tags: Vec<String> = (0..games).map(|g| g.to_string()).collect();
    let started = futures::future::join_all(
        (tags.iter().enumerate())
            .map(|(g, tag)| Game::start(tag, &urls, [g % 3, (g + 1) % 3, (g + 2) % 3])),
    )
    .await;
    // Each game passes turn after turn, South and North in turn, until told to stop (and a
    // few passes more: it goes on after the last restart).
    let stop = Arc::new(AtomicBool::new(false));
    // Passes made by each game.
    let (passed, progress) = watch::channel(vec![0u64; games]);
    let passed = Arc::new(passed);
    let players = started.into_iter().enumerate().map(|(g, mut game)| {
        let (stop, passed) = (stop.clone(), passed.clone());
        tokio::spawn(async move {
            let mut slowest = Duration::ZERO;
            let mut p = 0;
            let mut after_stop = None;
            loop {
                if stop.load(Ordering::SeqCst) {
                    let from = *after_stop.get_or_insert(p);
                    if p >= from + PASSES_BETWEEN as usize {
                        break;
                    }
                }
                slowest = slowest.max(game.pass(p).await);
                p += 1;
                passed.send_modify(|n| n[g] += 1);
            }
            (game, slowest, p - after_stop.unwrap_or(0))
        })
    });
    let players: Vec<_> = players.collect();
    let mut progress = progress;
    let mut seen = 0;
    let mut failovers = 0;
    let mut handoffs = 0;
    let every_game = |seen: u64| move |n: &Vec<u64>| n.iter().all(|p| *p >= seen);
    for (i, node) in nodes.iter_mut().enumerate() {
        // Every game plays on between restarts.
        seen += PASSES_BETWEEN;
        progress.wait_for(every_game(seen)).await.expect("games");
        // This run of the node is about to end: its counters are read now.
        failovers += counter(node.addr, "orion_failovers_total").await;
        handoffs += counter(node.addr, "orion_handoffs_total").await;
        let exit = tokio::task::block_in_place(|| node.terminate());
        assert!(exit.success(), "node {i} stopped with {exit}");
        tokio::task::block_in_place(|| node.restart());
        urls.lock().expect("urls")[i] = node.url();
    }
    seen += PASSES_BETWEEN;
    progress.wait_for(every_game(seen)).await.expect("games");
    for node in &nodes {
        failovers += counter(node.addr, "orion_failovers_total").await;
        handoffs += counter(node.addr, "orion_handoffs_total").await;
    }
    stop.store(true, Ordering::SeqCst);
    let store = {
        let url = pg.url();
        tokio::task::spawn_blocking(move || orion_server::PostgresStore::connect(&url))
            .await
            .expect("connect")
            .expect("the store")
    };
    let mut pauses = Vec::new();
    let mut restarts = 0;
    for player in players {
        let (game, slowest, passes) = player.await.expect("a game");
        // Every game went on after every node had restarted (it passed `seen` times by then,
        // and a few more since), and everything its members received is the stored
        // history, each event once, in order.
        assert_eq!(passes as u64, PASSES_BETWEEN, "{}", game.room);
        check_room(&store, &game.room, &[&game.s, &game.n, &game.w]).await;
        restarts += game.s.restarts + game.n.restarts + game.w.restarts;
        pauses.push(slowest);
    }
    // The rooms were handed over as the nodes stopped, never left to lapse and taken over.
    assert_eq!(
        failovers, 0,
        "rooms were taken over after their leases lapsed"
    );
    assert!(
        handoffs >= games as u64,
        "only {handoffs} rooms were handed over"
    );
    // Every member's connection was on a node that stopped at one time: told 1012.
    assert!(
        restarts as usize >= 3 * games,
        "{restarts} connections closed with 1012"
    );
    pauses.sort();
    let ms = |d: &Duration| d.as_millis();
    println!(
        "rolling restart of 3 nodes, {games} games: longest pause per game: median {} ms, \
         max {} ms; {handoffs} rooms handed over, {failovers} failovers",
        ms(&pauses[pauses.len() / 2]),
        ms(&pauses[pauses.len() - 1]),
    );
}
