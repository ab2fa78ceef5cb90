//! Moderation (issue 31, item 1) over the socket, on real servers: a report reaches a
//! moderator and nobody else may read it; a moderator's mute, kick, ban and unban take effect
//! at once on every node of a two-node cluster; a banned account's token is refused after a
//! restart with the reason and the end; a banned player's game ends as his resignation;
//! blocking hides a player's chat; the chat limit answers with the wait and the report bound
//! says itself; a deleted chat line leaves every page and the history; a closed room's game
//! ends; and on the page, the report dialog and the moderators' view.

use orion_server::{ManualClock, CHAT_PER_MINUTE, MAX_REPORTS_PER_HOUR};
use orion_tests::cluster::ClusterNode;
use orion_tests::nats::Nats;
use orion_tests::pg::Postgres;
use orion_tests::{play_moves, remove_db, start_room, temp_db, Client, TestServer, HYDRA_TWO, T0};
use serde_json::{json, Value};
use std::sync::Arc;

const PASSWORD: &str = "correct horse battery";
/// The administrator every server of these tests is started with (`--admin`).
const ADMIN: &str = "Boss";

/// Says hello as `name` on `url` and claims the name.
async fn account(url: &str, name: &str) -> Client {
    let mut c = guest(url, name).await;
    let w = c
        .request(json!({"t": "register", "password": PASSWORD}))
        .await;
    assert_eq!(w["account"], true, "{w}");
    c
}

/// Says hello as a new guest `name` on `url`; returns the client and his player id.
async fn guest(url: &str, name: &str) -> Client {
    let mut c = Client::connect(url).await;
    let w = c
        .request(json!({"t": "hello", "name": name, "version": 1}))
        .await;
    assert_eq!(w["t"], "welcome", "{w}");
    c.token = w["token"].as_str().unwrap_or_default().to_string();
    c.seat = w["player"].as_str().unwrap_or_default().to_string(); // his id, until he sits
    c
}

/// Says hello with `token` on `url`: the answer (`welcome`, or the refusal).
async fn hello_again(url: &str, name: &str, token: &str) -> (Client, Value) {
    let mut c = Client::connect(url).await;
    let w = c
        .request(json!({"t": "hello", "name": name, "version": 1, "token": token}))
        .await;
    c.token = token.to_string();
    (c, w)
}

fn admin_server(db: &str, clock: Arc<ManualClock>) -> TestServer {
    let config = orion_server::Config {
        db: db.to_string(),
        clock: clock.clone(),
        admins: vec![ADMIN.to_string()],
        ..Default::default()
    };
    TestServer::start_config(config, clock, None)
}

#[tokio::test]
async fn a_report_reaches_a_moderator_and_only_moderators_act() {
    let server = admin_server(":memory:", Arc::new(ManualClock::new(T0)));
    let url = server.url();
    let mut boss = account(&url, ADMIN).await;
    let mut ann = account(&url, "ann").await;
    let troll = guest(&url, "troll").await;
    let troll_id = troll.seat.clone();

    let filed = ann
        .request(json!({"t": "report", "player": troll_id, "reason": "insults in chat"}))
        .await;
    assert_eq!(filed["t"], "ok", "{filed}");
    let id = filed["report"].as_u64().expect("a report id");

    // Nobody but a moderator reads reports or acts.
    for req in [
        json!({"t": "reports"}),
        json!({"t": "audit"}),
        json!({"t": "mute", "player": troll_id, "minutes": 5, "reason": "r"}),
        json!({"t": "kick", "player": troll_id, "reason": "r"}),
        json!({"t": "ban", "player": troll_id, "reason": "r"}),
        json!({"t": "resolve_report", "report": id, "reason": "r"}),
        json!({"t": "promote", "player": "ann", "reason": "r"}),
    ] {
        let e = ann.refused(req.clone()).await;
        assert_eq!(e["code"], "forbidden", "{req}: {e}");
    }

    let reports = boss.request(json!({"t": "reports"})).await;
    assert_eq!(reports["t"], "reports", "{reports}");
    let open = reports["reports"].as_array().expect("reports");
    assert_eq!(open.len(), 1, "{reports}");
    assert_eq!(open[0]["player"], troll_id);
    assert_eq!(open[0]["reporter_name"], "ann");
    assert_eq!(open[0]["reason"], "insults in chat");

    // The bound on reports per reporter and hour, said in the refusal.
    for _ in 1..MAX_REPORTS_PER_HOUR {
        let r = ann
            .request(json!({"t": "report", "player": troll_id, "reason": "again"}))
            .await;
        assert_eq!(r["t"], "ok", "{r}");
    }
    let over = ann
        .refused(json!({"t": "report", "player": troll_id, "reason": "again"}))
        .await;
    assert_eq!(over["code"], "rate_limited", "{over}");
    assert!(
        over["message"]
            .as_str()
            .unwrap()
            .contains(&format!("{MAX_REPORTS_PER_HOUR} reports an hour")),
        "{over}"
    );

    // Resolved, it leaves the open list; the audit log says who, what, when and why.
    let done = boss
        .request(json!({"t": "resolve_report", "report": id, "reason": "warned him"}))
        .await;
    assert_eq!(done["t"], "ok", "{done}");
    let reports = boss.request(json!({"t": "reports"})).await;
    assert!(
        reports["reports"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["id"] != id),
        "{reports}"
    );
    let audit = boss.request(json!({"t": "audit"})).await;
    let last = &audit["entries"][0];
    assert_eq!(last["action"], "resolve_report", "{audit}");
    assert_eq!(last["moderator_name"], ADMIN);
    assert_eq!(last["reason"], "warned him");
    assert_eq!(last["at"], T0);

    // An administrator makes ann a moderator: she may now read the reports.
    let promoted = boss
        .request(json!({"t": "promote", "player": "ann", "reason": "trusted"}))
        .await;
    assert_eq!(promoted["t"], "ok", "{promoted}");
    let reports = ann.request(json!({"t": "reports"})).await;
    assert_eq!(reports["t"], "reports", "{reports}");
    boss.request(json!({"t": "demote", "player": "ann", "reason": "rotation"}))
        .await;
    let e = ann.refused(json!({"t": "reports"})).await;
    assert_eq!(e["code"], "forbidden", "{e}");
}

#[tokio::test]
async fn blocking_hides_chat_mutes_and_floods_are_refused_with_the_wait() {
    let clock = Arc::new(ManualClock::new(T0));
    let server = admin_server(":memory:", clock.clone());
    let url = server.url();
    let mut boss = account(&url, ADMIN).await;
    let mut ann = account(&url, "ann").await;
    let mut troll = guest(&url, "troll").await;
    let mut bob = guest(&url, "bob").await;
    let troll_id = troll.seat.clone();
    let made = ann.request(json!({"t": "create", "game": "hydra-2"})).await;
    let room = made["room"].as_str().expect("room").to_string();
    for c in [&mut troll, &mut bob, &mut boss] {
        let s = c.request(json!({"t": "spectate", "room": room})).await;
        assert_ne!(s["t"], "error", "{s}");
    }

    // ann blocks troll: his line never reaches her, bob's after it does.
    let blocks = ann.request(json!({"t": "block", "player": troll_id})).await;
    assert_eq!(blocks["players"][0]["player"], troll_id, "{blocks}");
    troll
        .send(json!({"t": "chat", "room": room, "text": "you are all bad"}))
        .await;
    let heard = bob.expect_event(&room, "chat").await;
    assert_eq!(heard["ev"]["text"], "you are all bad");
    bob.send(json!({"t": "chat", "room": room, "text": "hello ann"}))
        .await;
    let line = ann.expect_event(&room, "chat").await;
    assert_eq!(line["ev"]["text"], "hello ann", "troll's line reached ann");
    // Still blocked after she logs in again elsewhere (kept per account).
    let mut ann2 = Client::connect(&url).await;
    let w = ann2
        .request(json!({"t": "login", "name": "ann", "password": PASSWORD, "version": 1}))
        .await;
    assert_eq!(w["t"], "welcome", "{w}");
    ann2.request(json!({"t": "spectate", "room": room})).await;
    troll
        .send(json!({"t": "chat", "room": room, "text": "still here"}))
        .await;
    bob.send(json!({"t": "chat", "room": room, "text": "bye"}))
        .await;
    let line = ann2.expect_event(&room, "chat").await;
    assert_eq!(
        line["ev"]["text"], "bye",
        "troll's line reached ann's new login"
    );
    let unblocked = ann2
        .request(json!({"t": "unblock", "player": troll_id}))
        .await;
    assert_eq!(unblocked["players"], json!([]), "{unblocked}");
    // Her first connection is told at once (an unasked `blocks`, as each of her connections
    // was of her block), and hears troll again.
    ann.expect(|m| m["t"] == "blocks" && m["players"] == json!([]))
        .await;
    troll
        .send(json!({"t": "chat", "room": room, "text": "sorry"}))
        .await;
    let line = ann
        .expect(|m| m["t"] == "event" && m["ev"]["kind"] == "chat" && m["ev"]["text"] != "bye")
        .await;
    assert_eq!(line["ev"]["text"], "sorry", "{line}");

    // A delete: everyone present is told, and the history keeps the line without its text.
    let said = bob
        .expect(|m| m["t"] == "event" && m["ev"]["text"] == "hello ann")
        .await;
    let seq = said["seq"].as_u64().unwrap();
    let ok = boss
        .request(json!({"t": "delete_chat", "room": room, "seq": seq, "reason": "spam"}))
        .await;
    assert_eq!(ok["t"], "ok", "{ok}");
    for c in [&mut ann, &mut bob] {
        let gone = c.expect_t("chat_deleted").await;
        assert_eq!(gone["room"], room);
        assert_eq!(gone["seq"], seq);
    }
    let history = bob.request(json!({"t": "history", "room": room})).await;
    let line = (history["events"].as_array().unwrap().iter())
        .find(|e| e["seq"] == seq)
        .expect("the line's seq stays");
    assert_eq!(line["ev"]["text"], "", "{line}");
    assert_eq!(line["ev"]["deleted"], true, "{line}");
    let e = boss
        .refused(json!({"t": "delete_chat", "room": room, "seq": 1, "reason": "x"}))
        .await;
    assert_eq!(e["code"], "not_found", "only a chat line is deleted: {e}");

    // A mute: his chat is refused with the time left, until it runs out.
    let ok = boss
        .request(json!({"t": "mute", "player": troll_id, "minutes": 10, "reason": "insults"}))
        .await;
    assert_eq!(ok["t"], "ok", "{ok}");
    let e = troll
        .refused(json!({"t": "chat", "room": room, "text": "hey"}))
        .await;
    assert_eq!(e["code"], "muted", "{e}");
    assert_eq!(e["retry_ms"], 600_000, "{e}");
    assert!(e["message"].as_str().unwrap().contains("10 minutes"), "{e}");
    clock.advance(600_000);
    troll
        .send(json!({"t": "chat", "room": room, "text": "sorry"}))
        .await;
    let back = troll
        .expect(|m| m["t"] == "error" || (m["t"] == "event" && m["ev"]["text"] == "sorry"))
        .await;
    assert_eq!(back["t"], "event", "{back}");

    // The chat rate limit, across rooms: the line past it is refused with the wait.
    let other = bob.request(json!({"t": "create", "game": "hydra-2"})).await;
    let other = other["room"].as_str().unwrap().to_string();
    let mut refused = None;
    for i in 0..=CHAT_PER_MINUTE {
        let r = if i % 2 == 0 { &room } else { &other };
        let id = bob
            .send_with_id(json!({"t": "chat", "room": r, "text": format!("line {i}")}))
            .await;
        let reply = bob
            .expect(|m| {
                m["re"] == json!(id)
                    || (m["t"] == "event" && m["ev"]["text"] == format!("line {i}"))
            })
            .await;
        if reply["t"] == "error" {
            refused = Some((i, reply));
            break;
        }
    }
    // bob's earlier lines are ten minutes old: the whole minute's allowance is his.
    let (i, e) = refused.expect("the flood was refused");
    assert_eq!(i, CHAT_PER_MINUTE, "{e}");
    assert_eq!(e["code"], "rate_limited", "{e}");
    assert!(
        e["retry_ms"].as_u64().is_some_and(|w| w > 0 && w <= 60_000),
        "{e}"
    );
    assert!(e["message"].as_str().unwrap().contains("a minute"), "{e}");

    // A closed room's game ends for everyone in it.
    let ok = boss
        .request(json!({"t": "close_room", "room": other, "reason": "offensive name"}))
        .await;
    assert_eq!(ok["t"], "ok", "{ok}");
    let over = bob.expect_event(&other, "over").await;
    assert_eq!(over["ev"]["reason"], "aborted", "{over}");

    // A guest's ban also bans his address a while: no new guest from it.
    let ok = boss
        .request(json!({"t": "ban", "player": troll_id, "days": 1, "reason": "flooding"}))
        .await;
    assert_eq!(ok["t"], "ok", "{ok}");
    let e = troll.expect(|m| m["code"] == "banned").await;
    assert!(e["message"].as_str().unwrap().contains("flooding"), "{e}");
    assert_eq!(troll.expect_close().await, Some(1008));
    let mut again = Client::connect(&url).await;
    let e = again
        .request(json!({"t": "hello", "name": "troll2", "version": 1}))
        .await;
    assert_eq!(e["code"], "banned", "{e}");
    let audit = boss.request(json!({"t": "audit"})).await;
    let actions: Vec<&str> = (audit["entries"].as_array().unwrap().iter())
        .map(|e| e["action"].as_str().unwrap())
        .collect();
    assert_eq!(
        actions,
        ["ban", "close_room", "mute", "delete_chat"],
        "{audit}"
    );
}

#[tokio::test]
async fn a_banned_players_game_ends_as_his_resignation_and_his_token_stays_refused_after_a_restart()
{
    let db = temp_db("moderation-ban");
    let clock = Arc::new(ManualClock::new(T0));
    let server = admin_server(&db, clock.clone());
    let url = server.url();
    let mut boss = account(&url, ADMIN).await;
    let mut players = vec![account(&url, "cheat").await, account(&url, "fair").await];
    let room = start_room(&mut players, "hydra-2", json!({"rated": true})).await;
    let [mut cheat, mut fair] = <[Client; 2]>::try_from(players).ok().unwrap();
    // Both moved: the game counts.
    play_moves(&mut cheat, &mut fair, &room, &HYDRA_TWO[..1], false).await;
    let ok = boss
        .request(json!({"t": "ban", "player": "cheat", "days": 7, "reason": "used an engine"}))
        .await;
    assert_eq!(ok["t"], "ok", "{ok}");
    let e = cheat.expect(|m| m["code"] == "banned").await;
    assert!(
        e["message"].as_str().unwrap().contains("used an engine"),
        "{e}"
    );
    assert_eq!(cheat.expect_close().await, Some(1008));
    let over = fair.expect_event(&room, "over").await;
    assert_eq!(over["ev"]["reason"], "left", "{over}");
    assert_eq!(over["ev"]["result"]["winner"], json!(fair.seat), "{over}");
    let gained = over["ev"]["ratings"][&fair.seat]["delta"]
        .as_i64()
        .expect("rated");
    assert!(gained > 0, "{over}");
    drop(boss);
    server.shutdown();

    let server = admin_server(&db, clock.clone());
    let url = server.url();
    let (_, e) = hello_again(&url, "cheat", &cheat.token).await;
    assert_eq!(e["code"], "banned", "{e}");
    let msg = e["message"].as_str().unwrap();
    assert!(msg.contains("used an engine"), "{e}");
    // Seven days from the test clock's start (T0 is 2027-01-15 08:00 UTC).
    assert!(msg.contains("until 2027-01-22 08:00 UTC"), "{e}");
    assert_eq!(e["retry_ms"], 7 * 24 * 3_600_000u64, "{e}");
    let mut login = Client::connect(&url).await;
    let e = login
        .request(json!({"t": "login", "name": "cheat", "password": PASSWORD, "version": 1}))
        .await;
    assert_eq!(e["code"], "banned", "{e}");
    let mut boss = Client::connect(&url).await;
    boss.request(json!({"t": "login", "name": ADMIN, "password": PASSWORD, "version": 1}))
        .await;
    let ok = boss
        .request(json!({"t": "unban", "player": "cheat", "reason": "appeal upheld"}))
        .await;
    assert_eq!(ok["t"], "ok", "{ok}");
    let (_, w) = hello_again(&url, "cheat", &cheat.token).await;
    assert_eq!(w["t"], "welcome", "{w}");
    drop(server);
    remove_db(&db);
}

#[tokio::test]
async fn mute_kick_ban_and_unban_take_effect_at_once_on_every_node() {
    let bin = env!("CARGO_BIN_EXE_orion-node");
    let pg = Postgres::start();
    let nats = Nats::start();
    let flags = ["--admin", ADMIN];
    let a = ClusterNode::start_with(bin, &pg.url(), &nats.url(), "a", &flags);
    let b = ClusterNode::start_with(bin, &pg.url(), &nats.url(), "b", &flags);
    let mut boss = account(&a.url(), ADMIN).await;
    let mut troll = account(&b.url(), "troll").await;
    let made = troll
        .request(json!({"t": "create", "game": "hydra-2"}))
        .await;
    let room = made["room"].as_str().expect("room").to_string();

    // A mute given on a: troll's next line on b is refused.
    let ok = boss
        .request(json!({"t": "mute", "player": "troll", "minutes": 5, "reason": "insults"}))
        .await;
    assert_eq!(ok["t"], "ok", "{ok}");
    let e = troll
        .refused(json!({"t": "chat", "room": room, "text": "hey"}))
        .await;
    assert_eq!(e["code"], "muted", "{e}");

    // A kick on a closes his connection on b; he may come back.
    let ok = boss
        .request(json!({"t": "kick", "player": "troll", "reason": "cool off"}))
        .await;
    assert_eq!(ok["t"], "ok", "{ok}");
    let e = troll.expect(|m| m["t"] == "error").await;
    assert_eq!(e["code"], "forbidden", "{e}");
    assert_eq!(troll.expect_close().await, Some(1008));
    let (mut troll, w) = hello_again(&b.url(), "troll", &troll.token).await;
    assert_eq!(w["t"], "welcome", "{w}");

    // A ban on a closes it on b, and his token is refused on both nodes.
    let ok = boss
        .request(json!({"t": "ban", "player": "troll", "reason": "threats"}))
        .await;
    assert_eq!(ok["t"], "ok", "{ok}");
    let e = troll.expect(|m| m["t"] == "error").await;
    assert_eq!(e["code"], "banned", "{e}");
    assert!(
        e["message"].as_str().unwrap().contains("for good: threats"),
        "{e}"
    );
    assert_eq!(troll.expect_close().await, Some(1008));
    for node in [&a, &b] {
        let (_, e) = hello_again(&node.url(), "troll", &troll.token).await;
        assert_eq!(e["code"], "banned", "{e}");
    }

    // Unbanned on b, he is welcome on a.
    let mut boss_b = Client::connect(&b.url()).await;
    boss_b
        .request(json!({"t": "login", "name": ADMIN, "password": PASSWORD, "version": 1}))
        .await;
    let ok = boss_b
        .request(json!({"t": "unban", "player": "troll", "reason": "appeal"}))
        .await;
    assert_eq!(ok["t"], "ok", "{ok}");
    let (_, w) = hello_again(&a.url(), "troll", &troll.token).await;
    assert_eq!(w["t"], "welcome", "{w}");
}

use crate::chromium;

/// The page: a player's name in a room opens a dialog to report him; the report reaches the
/// moderators' view (`/moderation`), whose action form mutes him; axe-core finds nothing
/// serious on the dialog or the view.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_report_dialog_reaches_the_moderators_view_which_mutes() {
    use chromium::{axe_source, axe_violations, js, open, press, type_into, wait_js, wait_text};
    let axe = axe_source();
    let server = admin_server(":memory:", Arc::new(ManualClock::new(T0)));
    let url = server.url();
    let base = format!("http://{}", server.addr);
    account(&url, ADMIN).await;
    let mut troll = guest(&url, "troll").await;
    let troll_id = troll.seat.clone();
    let made = troll
        .request(json!({"t": "create", "game": "hydra-2"}))
        .await;
    let room = made["room"].as_str().expect("room").to_string();

    let mut driver = chromium::Driver::start();
    let page = driver.browser(1280, 900).await;
    open(&page, &base, &format!("/r/{room}"), "ann").await;
    press(&page, "#seats [data-seat=S] button.about").await;
    wait_js(
        &page,
        "document.getElementById('player-dialog')?.open",
        "the dialog",
    )
    .await;
    wait_text(&page, "#player-dialog-title", "troll").await;
    type_into(&page, "#report-reason", "calls everyone names").await;
    press(&page, "#report-send").await;
    wait_text(&page, "#player-note", "moderators will look").await;
    let found = axe_violations(&page, &axe).await;
    assert!(found.is_empty(), "the report dialog: {found:?}");

    // The administrator's page: logged in, it shows the report and mutes from it.
    let boss = driver.browser(1280, 900).await;
    boss.goto(&format!("{base}/moderation?name={ADMIN}"))
        .await
        .expect("page loads");
    wait_js(
        &boss,
        "!!document.getElementById('claimed-login-password')",
        "the log-in prompt of a claimed name",
    )
    .await;
    type_into(&boss, "#claimed-login-password", PASSWORD).await;
    press(&boss, "#claimed-login button[type=submit]").await;
    wait_js(
        &boss,
        "!document.getElementById('moderation-link').hidden",
        "the moderation link",
    )
    .await;
    wait_text(&boss, "#mod-reports", "calls everyone names").await;
    wait_text(&boss, "#mod-reports", &troll_id).await;
    press(&boss, "#mod-reports button").await;
    js(
        &boss,
        "document.getElementById('mod-minutes').value = '15'; return 1",
    )
    .await;
    type_into(&boss, "#mod-reason", "name-calling").await;
    press(&boss, "#mod-do").await;
    wait_text(&boss, "#mod-note", "Done: mute").await;
    wait_text(&boss, "#mod-audit", "name-calling").await;
    let e = troll
        .refused(json!({"t": "chat", "room": room, "text": "hey"}))
        .await;
    assert_eq!(e["code"], "muted", "{e}");
    assert_eq!(e["retry_ms"], 15 * 60_000, "{e}");
    let found = axe_violations(&boss, &axe).await;
    assert!(found.is_empty(), "the moderators' view: {found:?}");
}
