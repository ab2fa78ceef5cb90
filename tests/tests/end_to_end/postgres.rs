//! The PostgreSQL store against a real PostgreSQL (started by `orion_tests::pg` for each
//! test): the same promises as SQLite — appends committed in order before their commit
//! resolves, a bad append refused alone, unfinished rooms restored, history kept, pruning —
//! and a server killed mid-game that restarts on the same database with no event lost; and
//! accounts and ratings: a rated game's ratings and board kept across a restart; a claimed
//! account's lesson progress; a cluster node's appends fenced by its rooms' lease epochs; and
//! notification settings, addresses and push subscriptions (`NotifyStore`).

use orion_server::{
    ActionRecord, Append, Commit, Fences, PlayerRecord, PostgresStore, RoomRecord, Store,
    StoreError,
};
use orion_tests::pg::Postgres;
use orion_tests::T0;
use std::sync::Arc;

fn block_on<F: std::future::Future>(f: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime")
        .block_on(f)
}

/// Waits for every commit, in order; whether each succeeded.
fn settle(commits: Vec<Commit>) -> Vec<bool> {
    block_on(async {
        let mut out = Vec::new();
        for c in commits {
            out.push(c.wait().await.is_ok());
        }
        out
    })
}

/// A Hydra room record, as the rooms create it.
fn room(id: &str) -> RoomRecord {
    RoomRecord {
        id: id.into(),
        game: "hydra-2".into(),
        options: "{}".into(),
        seed: u64::MAX - 7,
        private: false,
        code: None,
        salt: Some("00ff".into()),
    }
}

/// Append `n` of `room`, one event with seq `n` and no action.
fn event(room: &str, n: u64) -> Append {
    Append {
        room: Arc::from(room),
        n,
        action: None,
        events: vec![(n, format!("{{\"seq\":{n}}}"))],
        seq: n,
    }
}

/// Append `n` of `room` with a click by north.
fn click(room: &str, n: u64) -> Append {
    Append {
        action: Some(ActionRecord {
            seat: "N".into(),
            action: format!("click C{}R", n % 5 + 1),
            at: n * 10,
        }),
        ..event(room, n)
    }
}

fn seqs(events: &[(u64, String)]) -> Vec<u64> {
    events.iter().map(|e| e.0).collect()
}

/// Counts rows with another connection, as another process would see the database.
fn count(pg: &Postgres, sql: &str) -> i64 {
    block_on(async {
        let (client, conn) = tokio_postgres::connect(&pg.url(), tokio_postgres::NoTls)
            .await
            .expect("connect");
        tokio::spawn(conn);
        client.query_one(sql, &[]).await.expect("count").get(0)
    })
}

/// Runs `sql` with another connection (another node, say).
fn exec(pg: &Postgres, sql: &str) {
    block_on(async {
        let (client, conn) = tokio_postgres::connect(&pg.url(), tokio_postgres::NoTls)
            .await
            .expect("connect");
        tokio::spawn(conn);
        client.batch_execute(sql).await.expect("sql");
    })
}

#[test]
fn a_cluster_nodes_append_is_stored_only_under_its_rooms_current_lease_epoch() {
    let pg = Postgres::start();
    let fences = Arc::new(Fences::new(
        Arc::from("a"),
        std::time::Duration::from_secs(60),
    ));
    let s = PostgresStore::connect_fenced(&pg.url(), Some(fences.clone())).expect("store");
    exec(
        &pg,
        "INSERT INTO room_leases (room, node, expires_at, epoch) VALUES
             ('r', 'a', now() + interval '1 minute', 3), ('q', 'a', now() + interval '1 minute', 1)",
    );
    // A room this node runs under no epoch is refused without asking the database.
    assert_eq!(settle(vec![s.append(event("r", 1))]), vec![false]);
    fences.hold("r", 3);
    fences.hold("q", 1);
    assert_eq!(
        settle(vec![s.append(event("r", 1)), s.append(event("q", 1))]),
        vec![true, true]
    );
    // Node b takes r over (its lease's next epoch): a's next append of r is refused as
    // fenced, while q's, in the same group commit, is stored.
    exec(
        &pg,
        "UPDATE room_leases SET node = 'b', epoch = 4 WHERE room = 'r'",
    );
    let (r, q) = block_on(async {
        let r = s.append(event("r", 2));
        let q = s.append(event("q", 2));
        (r.wait().await, q.wait().await)
    });
    assert!(matches!(r, Err(StoreError::Fenced(_))), "{r:?}");
    assert!(q.is_ok(), "{q:?}");
    assert_eq!(seqs(&block_on(s.events("r", 0, 10)).unwrap()), vec![1]);
    // Taken back by a under yet another epoch: its old task's epoch stays refused, the new
    // one's is stored.
    exec(
        &pg,
        "UPDATE room_leases SET node = 'a', epoch = 5 WHERE room = 'r'",
    );
    assert_eq!(settle(vec![s.append(event("r", 2))]), vec![false]);
    fences.hold("r", 5);
    assert_eq!(settle(vec![s.append(event("r", 2))]), vec![true]);
    assert_eq!(seqs(&block_on(s.events("r", 0, 10)).unwrap()), vec![1, 2]);
}

#[test]
fn appends_are_committed_in_order_before_their_commit_resolves() {
    let pg = Postgres::start();
    let s = PostgresStore::connect(&pg.url()).expect("store");
    block_on(s.create_room(&room("a"))).unwrap();
    block_on(s.create_room(&room("b"))).unwrap();
    // Two rooms' appends queued together, so most land in shared group commits.
    let mut commits = Vec::new();
    for n in 1..=300 {
        commits.push(s.append(event("a", n)));
        commits.push(s.append(click("b", n)));
    }
    assert!(settle(commits).into_iter().all(|ok| ok));
    // Another connection sees every one of them once their commits have resolved.
    assert_eq!(count(&pg, "SELECT COUNT(*) FROM log"), 600);
    let a = block_on(s.events("a", 0, usize::MAX)).unwrap();
    assert_eq!(seqs(&a), (1..=300).collect::<Vec<_>>());
    assert_eq!(a[41].1, "{\"seq\":42}");
    assert_eq!(
        seqs(&block_on(s.events("b", 297, 10)).unwrap()),
        vec![298, 299, 300]
    );
    assert_eq!(
        seqs(&block_on(s.events("b", 10, 3)).unwrap()),
        vec![11, 12, 13]
    );
    assert!(block_on(s.events("nowhere", 0, 10)).unwrap().is_empty());
}

#[test]
fn a_bad_append_fails_alone_in_its_group_commit() {
    let pg = Postgres::start();
    let s = PostgresStore::connect(&pg.url()).expect("store");
    // Queued back to back, these land in one group commit; the duplicate of room a's first
    // append and the gap in room b must be refused without losing what is queued around them.
    let commits = vec![
        s.append(event("a", 1)),
        s.append(event("b", 1)),
        s.append(event("a", 1)),
        s.append(event("b", 2)),
        s.append(event("b", 4)),
        s.append(event("a", 2)),
    ];
    assert_eq!(settle(commits), vec![true, true, false, true, false, true]);
    assert_eq!(seqs(&block_on(s.events("a", 0, 10)).unwrap()), vec![1, 2]);
    assert_eq!(seqs(&block_on(s.events("b", 0, 10)).unwrap()), vec![1, 2]);
    // A second store on the same database (a restarted server) knows where each room is.
    drop(s);
    let s = PostgresStore::connect(&pg.url()).expect("store");
    let late = vec![s.append(event("b", 2)), s.append(event("b", 3))];
    assert_eq!(settle(late), vec![false, true]);
}

#[test]
fn unfinished_rooms_come_back_with_events_actions_and_append_count() {
    let pg = Postgres::start();
    {
        let s = PostgresStore::connect(&pg.url()).expect("store");
        for id in ["r", "done", "empty"] {
            block_on(s.create_room(&room(id))).unwrap();
        }
        block_on(s.set_status("r", "playing", T0)).unwrap();
        let mut commits: Vec<Commit> = (1..=9).map(|n| s.append(click("r", n))).collect();
        // An append of two events with no action (say, a chat and a join).
        commits.push(s.append(Append {
            room: Arc::from("r"),
            n: 10,
            action: None,
            events: vec![(10, "{\"x\":10}".into()), (11, "{\"x\":11}".into())],
            seq: 11,
        }));
        commits.push(s.append(event("done", 1)));
        assert!(settle(commits).into_iter().all(|ok| ok));
        block_on(s.set_status("done", "finished", T0)).unwrap();
    }
    let s = PostgresStore::connect(&pg.url()).expect("store");
    let saved = block_on(s.unfinished()).unwrap();
    let ids: Vec<&str> = saved.iter().map(|r| r.record.id.as_str()).collect();
    assert_eq!(ids, vec!["r", "empty"], "in the order they were created");
    let r = &saved[0];
    assert_eq!(r.record, room("r"), "the seed's top bit survives");
    assert_eq!(r.appends, 10);
    assert_eq!(seqs(&r.events), (1..=11).collect::<Vec<_>>());
    assert_eq!(r.events[10].1, "{\"x\":11}");
    assert_eq!(r.actions.len(), 9);
    assert_eq!(r.actions[2], click("r", 3).action.unwrap());
    assert_eq!(saved[1].appends, 0);
    assert!(saved[1].events.is_empty());
    // A finished game keeps its history.
    let (record, status) = block_on(s.room("done")).unwrap().expect("finished room");
    assert_eq!((record.id.as_str(), status.as_str()), ("done", "finished"));
    assert_eq!(seqs(&block_on(s.events("done", 0, 10)).unwrap()), vec![1]);
    assert!(block_on(s.room("never")).unwrap().is_none());
    // The restored room carries on from its count, and only from there.
    let next = vec![s.append(click("r", 10)), s.append(click("r", 11))];
    assert_eq!(settle(next), vec![false, true]);
}

#[test]
fn one_unfinished_room_is_read_alone_as_a_node_taking_it_over_reads_it() {
    let pg = Postgres::start();
    {
        let s = PostgresStore::connect(&pg.url()).expect("store");
        for id in ["r", "other", "done"] {
            block_on(s.create_room(&room(id))).unwrap();
        }
        block_on(s.set_status("r", "playing", T0)).unwrap();
        let mut commits: Vec<Commit> = (1..=3).map(|n| s.append(click("r", n))).collect();
        commits.push(s.append(click("other", 1)));
        commits.push(s.append(event("done", 1)));
        assert!(settle(commits).into_iter().all(|ok| ok));
        block_on(s.set_status("done", "finished", T0)).unwrap();
    }
    let s = PostgresStore::connect(&pg.url()).expect("store");
    // A restart lists the waiting and playing rooms, in the order they were created.
    assert_eq!(block_on(s.unfinished_ids()).unwrap(), vec!["r", "other"]);
    let r = block_on(s.saved("r")).unwrap().expect("r is unfinished");
    // Exactly what reading every unfinished room gives for it.
    let reader = PostgresStore::connect(&pg.url()).expect("store");
    let all = block_on(reader.unfinished()).unwrap();
    let same = all.iter().find(|a| a.record.id == "r").expect("r");
    assert_eq!(r.record, same.record);
    assert_eq!(
        (r.appends, &r.events, &r.actions),
        (3, &same.events, &same.actions)
    );
    assert_eq!(seqs(&r.events), vec![1, 2, 3]);
    assert!(block_on(s.saved("done")).unwrap().is_none(), "finished");
    assert!(block_on(s.saved("never")).unwrap().is_none());
    // The room carries on from its count, and only from there.
    let next = vec![s.append(click("r", 3)), s.append(click("r", 4))];
    assert_eq!(settle(next), vec![false, true]);
}

#[test]
fn prune_deletes_rooms_that_ended_before_the_cut_and_players_not_seen_since() {
    let pg = Postgres::start();
    let s = PostgresStore::connect(&pg.url()).expect("store");
    for id in ["old", "live", "recent"] {
        block_on(s.create_room(&room(id))).unwrap();
        let chat = r#"{"kind":"chat","seat":"S","name":"ann","text":"hi"}"#;
        let append = Append {
            room: Arc::from(id),
            n: 1,
            action: None,
            events: vec![(1, chat.into())],
            seq: 1,
        };
        assert_eq!(settle(vec![s.append(append)]), vec![true]);
    }
    block_on(s.set_status("old", "finished", 1_000)).unwrap();
    block_on(s.set_status("recent", "closed", 5_000)).unwrap();
    let player = |id: &str| PlayerRecord {
        id: id.into(),
        name: id.into(),
    };
    block_on(s.put_player("t-old", &player("p1"), 1_000)).unwrap();
    block_on(s.put_player("t-new", &player("p2"), 5_000)).unwrap();
    // A player seen again is renamed and kept.
    block_on(s.put_player("t-back", &player("p3"), 1_000)).unwrap();
    let renamed = PlayerRecord {
        id: "p3".into(),
        name: "ann".into(),
    };
    block_on(s.put_player("t-back", &renamed, 6_000)).unwrap();

    assert_eq!(block_on(s.prune(2_000)).unwrap(), (1, 1));
    assert!(block_on(s.room("old")).unwrap().is_none());
    assert!(block_on(s.events("old", 0, 10)).unwrap().is_empty());
    assert_eq!(block_on(s.events("recent", 0, 10)).unwrap().len(), 1);
    assert_eq!(
        block_on(s.events("live", 0, 10)).unwrap().len(),
        1,
        "a live room is kept"
    );
    assert!(block_on(s.player("t-old")).unwrap().is_none());
    assert_eq!(block_on(s.player("t-new")).unwrap(), Some(player("p2")));
    assert_eq!(block_on(s.player("t-back")).unwrap(), Some(renamed));
    assert_eq!(block_on(s.unfinished()).unwrap().len(), 1);
    assert_eq!(block_on(s.prune(2_000)).unwrap(), (0, 0));
}

#[test]
fn the_schema_is_migrated_once_and_a_newer_one_is_refused() {
    let pg = Postgres::start();
    drop(PostgresStore::connect(&pg.url()).expect("first start migrates"));
    drop(PostgresStore::connect(&pg.url()).expect("second start finds it done"));
    // Each migration recorded once, numbered from 1 without a gap.
    let recorded = count(&pg, "SELECT COUNT(*) FROM schema_version");
    assert!(
        recorded >= 5,
        "the archive's, the accounts' and the cluster's migrations ran too: {recorded}"
    );
    assert_eq!(
        count(
            &pg,
            "SELECT COALESCE(MAX(version), 0)::BIGINT FROM schema_version"
        ),
        recorded
    );
    count(
        &pg,
        "WITH v AS (INSERT INTO schema_version (version) VALUES (999) RETURNING 1)
         SELECT COUNT(*) FROM v",
    );
    let refused = PostgresStore::connect(&pg.url()).err().expect("refused");
    assert!(refused.to_string().contains("999"), "{refused}");
}

/// Takes a database of this build back to how the build before hashed tokens left the
/// tables migration 7 changes (tokens in clear, one per account, no skeletons), with rows;
/// the later migrations (8: lease epochs; 9, 10, 11: their tables) are undone too, to be run
/// again.
const BACK_BEFORE_HASHED_TOKENS: &str = "
    DELETE FROM schema_version WHERE version >= 7;
    DROP TABLE notify_accounts, push_subscriptions, notify_secrets;
    DROP TABLE lesson_progress;
    DROP TABLE moderators, sanctions, reports, audit, blocks, redactions;
    ALTER TABLE room_leases DROP COLUMN epoch;
    DROP TABLE account_tokens;
    DROP INDEX accounts_skeleton;
    ALTER TABLE accounts DROP COLUMN name_skeleton;
    ALTER TABLE accounts ADD COLUMN token TEXT NOT NULL UNIQUE;
    INSERT INTO accounts (id, name, name_key, hash, token, created_at)
        VALUES ('p1', 'alice', 'alice', 'h', 'tok-alice', 1),
               ('p2', 'al\u{131}ce', 'al\u{131}ce', 'h', 'tok-other', 2);
    INSERT INTO players VALUES ('tok-alice', 'p1', 'alice', 1), ('tok-guest', 'p3', 'guest', 1);
";

#[test]
fn an_older_databases_clear_tokens_are_hashed_in_place_and_its_names_get_skeletons() {
    use orion_server::AccountStore;
    let pg = Postgres::start();
    drop(PostgresStore::connect(&pg.url()).expect("a fresh database"));
    block_on(async {
        let (client, conn) = tokio_postgres::connect(&pg.url(), tokio_postgres::NoTls)
            .await
            .expect("connect");
        tokio::spawn(conn);
        client
            .batch_execute(BACK_BEFORE_HASHED_TOKENS)
            .await
            .expect("the older schema");
    });
    let s = PostgresStore::connect(&pg.url()).expect("migrates");
    let hash = orion_server::token_hash;
    // Every player keeps his token: it is found by its hash, and is nowhere in clear.
    let alice = block_on(s.account_by_token(&hash("tok-alice"))).unwrap();
    assert_eq!(alice.map(|a| a.id).as_deref(), Some("p1"));
    let guest = block_on(s.player(&hash("tok-guest"))).unwrap();
    assert_eq!(guest.map(|g| g.id).as_deref(), Some("p3"));
    assert!(block_on(s.player("tok-guest")).unwrap().is_none());
    let clear = count(&pg, "SELECT COUNT(*) FROM players WHERE token LIKE 'tok-%'")
        + count(
            &pg,
            "SELECT COUNT(*) FROM account_tokens WHERE hash LIKE 'tok-%'",
        );
    assert_eq!(clear, 0);
    // Both old look-alikes keep their names; a newcomer's look-alike is found by skeleton.
    let skeleton = orion_server::name_skeleton("ALICE");
    let claimed = block_on(s.account_by_skeleton(&skeleton)).unwrap();
    assert_eq!(claimed.map(|a| a.id).as_deref(), Some("p1"));
    let other = block_on(s.account_by_token(&hash("tok-other"))).unwrap();
    assert_eq!(other.map(|a| a.name).as_deref(), Some("al\u{131}ce"));
    drop(s);
    drop(PostgresStore::connect(&pg.url()).expect("a second start changes nothing"));
    assert_eq!(count(&pg, "SELECT COUNT(*) FROM account_tokens"), 2);
}

#[test]
fn an_unreachable_database_fails_the_start_with_a_clear_error() {
    let mut pg = Postgres::start();
    let url = pg.url();
    pg.stop();
    let err = PostgresStore::connect(&url).err().expect("no database");
    assert!(err.to_string().starts_with("store:"), "{err}");
}

#[tokio::test]
async fn the_archive_lists_a_players_games_and_is_pruned_with_its_rooms() {
    let pg = Postgres::start();
    let s = PostgresStore::connect(&pg.url()).expect("store");
    orion_tests::the_archive_keeps_a_players_games(&s).await;
}

#[tokio::test]
async fn a_killed_server_restarts_on_postgres_with_no_event_lost() {
    let pg = Postgres::start();
    orion_tests::a_killed_server_loses_no_event(&pg.url()).await;
}

#[tokio::test]
async fn accounts_and_ratings_are_kept_in_postgres_across_a_restart() {
    use orion_tests::{start_room, Client, TestServer};
    use serde_json::json;
    let pg = Postgres::start();
    let clock = Arc::new(orion_server::ManualClock::new(T0));
    let server = TestServer::start_on(&pg.url(), clock.clone());
    let password = "correct horse battery";
    let mut players = Vec::new();
    for name in ["Ann", "Ben"] {
        let mut c = server.player(name).await;
        let w = c
            .request(json!({"t": "register", "password": password}))
            .await;
        assert_eq!(w["account"], true, "{w}");
        players.push(c);
    }
    // The name is taken in any case, in PostgreSQL as in SQLite.
    let mut other = server.player("other").await;
    let e = other
        .refused(json!({"t": "login", "name": "ANN", "password": "not it at all"}))
        .await;
    assert_eq!(e["code"], "not_found");
    let mut late = Client::connect(&server.url()).await;
    let e = late
        .refused(json!({"t": "hello", "name": "ann", "version": 1}))
        .await;
    assert!(
        e["message"]
            .as_str()
            .unwrap_or_default()
            .contains("claimed"),
        "{e}"
    );
    let room = start_room(
        &mut players,
        "hydra-2",
        json!({"turn_clock": 1000, "time_bank": 1}),
    )
    .await;
    // Both move (a rated game counts once everyone has), then South's time runs out.
    {
        let (s, n) = players.split_at_mut(1);
        let first = &orion_tests::HYDRA_TWO[..1];
        orion_tests::play_moves(&mut s[0], &mut n[0], &room, first, false).await;
    }
    server.clock.advance(1000);
    tokio::task::yield_now().await;
    server.clock.advance(1);
    let over = players[0].expect_event(&room, "over").await;
    let ratings = over["ev"]["ratings"].clone();
    assert_eq!(ratings.as_object().map(|r| r.len()), Some(2), "{over}");
    let ann_seat = players[0].seat.clone();
    let ann_rating = ratings[&ann_seat]["rating"].clone();
    drop(players);
    server.shutdown();

    let server = TestServer::start_on(&pg.url(), clock);
    let mut phone = Client::connect(&server.url()).await;
    let w = phone
        .request(json!({"t": "login", "name": "ann", "password": password, "version": 1}))
        .await;
    assert_eq!(
        (w["t"].clone(), w["name"].clone()),
        (json!("welcome"), json!("Ann"))
    );
    let board = phone
        .request(json!({"t": "leaderboard", "game": "hydra-2"}))
        .await;
    assert_eq!(board["total"], 2, "{board}");
    assert_eq!(board["you"]["rating"], ann_rating, "{board}");
    assert_eq!(board["you"]["games"], 1);
    // The room was rated once, and marked so (a second settlement would change nothing).
    let (client, conn) = tokio_postgres::connect(&pg.url(), tokio_postgres::NoTls)
        .await
        .expect("connect");
    tokio::spawn(conn);
    let rated: i64 = client
        .query_one("SELECT COUNT(*) FROM rooms WHERE rated_at IS NOT NULL", &[])
        .await
        .expect("count")
        .get(0);
    assert_eq!(rated, 1);
    // Its record is built once and kept in PostgreSQL; the pair's game is counted for the
    // pair window.
    let path = format!("/g/{room}.txt");
    let record = orion_tests::http_get(server.addr, &path).await;
    assert!(record.starts_with("HTTP/1.1 200"), "{record}");
    assert_eq!(orion_tests::http_get(server.addr, &path).await, record);
    let count = |sql: &'static str| {
        let (client, room) = (&client, room.clone());
        async move {
            let n: i64 = client.query_one(sql, &[&room]).await.expect("count").get(0);
            n
        }
    };
    assert_eq!(
        count("SELECT COUNT(*) FROM records WHERE room = $1").await,
        1
    );
    assert_eq!(
        count("SELECT COUNT(*) FROM rated_players WHERE room = $1").await,
        2
    );
}

#[tokio::test]
async fn a_claimed_accounts_lesson_progress_is_kept_in_postgres() {
    let pg = Postgres::start();
    let clock = Arc::new(orion_server::ManualClock::new(T0));
    let server = orion_tests::TestServer::start_on(&pg.url(), clock);
    orion_tests::progress::lesson_progress_follows_the_account(&server).await;
}

#[test]
fn notification_settings_addresses_and_push_subscriptions_are_kept() {
    use orion_server::{NotifyRecord, NotifyStore, PushRecord, Subscribed};
    let pg = Postgres::start();
    let s = PostgresStore::connect(&pg.url()).expect("connect");
    // A secret is made once: a second node's fresh one loses to the stored one.
    assert_eq!(
        block_on(s.notify_secret("vapid_private", "one")).unwrap(),
        "one"
    );
    assert_eq!(
        block_on(s.notify_secret("vapid_private", "two")).unwrap(),
        "one"
    );
    assert_eq!(block_on(s.notify_record("p1")).unwrap(), None);
    let mut record = NotifyRecord::fresh("p1");
    record.over = false;
    record.address = Some("bob@example.org".into());
    record.token_hash = Some("h1".into());
    record.token_expires = T0 + 1000;
    block_on(s.put_notify_record(&record)).unwrap();
    assert_eq!(
        block_on(s.notify_record("p1")).unwrap(),
        Some(record.clone())
    );
    assert_eq!(
        block_on(s.confirm_email("h1", T0 + 1000)).unwrap(),
        None,
        "an expired token confirms nothing"
    );
    assert_eq!(
        block_on(s.confirm_email("h1", T0)).unwrap(),
        Some(("p1".into(), "bob@example.org".into()))
    );
    assert_eq!(block_on(s.confirm_email("h1", T0)).unwrap(), None, "once");
    let kept = block_on(s.notify_record("p1")).unwrap().expect("kept");
    assert!(kept.confirmed && kept.token_hash.is_none() && !kept.over);
    let sub = |n: u32| PushRecord {
        endpoint: format!("https://push.example/{n}"),
        p256dh: "k".into(),
        auth: "a".into(),
    };
    for n in 0..2 {
        let added = block_on(s.add_push_subscription("p1", &sub(n), 2, T0 + u64::from(n)));
        assert_eq!(added.unwrap(), Subscribed::Done);
    }
    let full = block_on(s.add_push_subscription("p1", &sub(2), 2, T0 + 2)).unwrap();
    assert_eq!(full, Subscribed::Full);
    let again = block_on(s.add_push_subscription("p1", &sub(1), 2, T0 + 3)).unwrap();
    assert_eq!(
        again,
        Subscribed::Done,
        "the same browser again is no new one"
    );
    assert_eq!(
        block_on(s.push_subscriptions("p1")).unwrap(),
        vec![sub(0), sub(1)]
    );
    block_on(s.drop_push_endpoint(&sub(0).endpoint)).unwrap();
    assert!(!block_on(s.remove_push_subscription("p2", &sub(1).endpoint)).unwrap());
    assert!(block_on(s.remove_push_subscription("p1", &sub(1).endpoint)).unwrap());
    assert!(block_on(s.push_subscriptions("p1")).unwrap().is_empty());
}
