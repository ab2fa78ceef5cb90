//! Headless Chromium for the front door's tests (`front_door.rs`): Debian's `chromium` driven
//! by its `chromedriver` (WebDriver, `fantoccini`), each browser with a fresh profile and the
//! window size asked for, and the page helpers those tests use (`front_door.rs`, `learn.rs`,
//! `browser_room.rs` …; each uses some of them), axe-core among them. The same approach as `browser.rs`, which keeps
//! its own copy.
#![allow(dead_code)]

use fantoccini::{Client as Browser, ClientBuilder, Locator};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const CHROMIUM: &str = "/usr/bin/chromium";
const CHROMEDRIVER: &str = "/usr/bin/chromedriver";
/// How long a page has to show what the server said (a guard, not a pause: every wait polls).
pub const PAGE_PATIENCE: Duration = Duration::from_secs(10);

/// A `chromedriver` this test started, in its own process group (so the browsers it starts
/// die with it), and the profile directories of its browsers.
pub struct Driver {
    child: Child,
    port: u16,
    profiles: Vec<PathBuf>,
}

impl Driver {
    pub fn start() -> Driver {
        for bin in [CHROMIUM, CHROMEDRIVER] {
            assert!(
                std::path::Path::new(bin).exists(),
                "{bin} is missing: the browser tests need Debian's chromium and chromium-driver \
                 (apt-get update && apt-get install -y chromium chromium-driver)"
            );
        }
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .expect("a free port");
        use std::os::unix::process::CommandExt;
        let child = Command::new(CHROMEDRIVER)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .expect("chromedriver starts");
        let up = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(
                up.elapsed() < PAGE_PATIENCE,
                "chromedriver did not listen on {port}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        Driver {
            child,
            port,
            profiles: Vec::new(),
        }
    }

    /// A new headless browser with a fresh profile (its own localStorage), its window
    /// `width` x `height` CSS pixels.
    pub async fn browser(&mut self, width: u32, height: u32) -> Browser {
        let profile = std::env::temp_dir().join(format!(
            "orion-door-{}-{}-{}",
            std::process::id(),
            self.port,
            self.profiles.len()
        ));
        let _ = std::fs::remove_dir_all(&profile);
        std::fs::create_dir_all(&profile).expect("profile dir");
        let mut caps = json!({
            "goog:chromeOptions": {
                "binary": CHROMIUM,
                "args": [
                    "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                    "--disable-background-networking", "--disable-component-update",
                    "--disable-sync", "--no-first-run", "--hide-scrollbars",
                    // The self-signed certificate of a test's TLS proxy (`nginx.rs`).
                    "--ignore-certificate-errors",
                    format!("--window-size={width},{height}"),
                    format!("--user-data-dir={}", profile.display()),
                ]
            }
        });
        // Chromium's windows are at least 500 px wide: a phone's width is emulated.
        if width < 500 {
            caps["goog:chromeOptions"]["mobileEmulation"] = json!({
                "deviceMetrics": {"width": width, "height": height, "pixelRatio": 1.0, "touch": true}
            });
        }
        self.profiles.push(profile);
        let Value::Object(caps) = caps else {
            unreachable!("a JSON object")
        };
        let connector = hyper_util::client::legacy::connect::HttpConnector::new();
        ClientBuilder::new(connector)
            .capabilities(caps)
            .connect(&format!("http://127.0.0.1:{}", self.port))
            .await
            .expect("a chromium session")
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        // The whole group: chromedriver and every chromium it started.
        let _ = Command::new("kill")
            .args(["-KILL", "--", &format!("-{}", self.child.id())])
            .status();
        let _ = self.child.kill();
        let _ = self.child.wait();
        for p in &self.profiles {
            let _ = std::fs::remove_dir_all(p);
        }
    }
}

/// Runs `script` in the page and returns its value.
pub async fn js(page: &Browser, script: &str) -> Value {
    page.execute(script, vec![]).await.expect("script runs")
}

/// Polls `script` (a JS expression) until it is true; fails with `what` after the patience.
pub async fn wait_js(page: &Browser, script: &str, what: &str) {
    let start = Instant::now();
    loop {
        if js(page, &format!("return !!({script})")).await == json!(true) {
            return;
        }
        if start.elapsed() > PAGE_PATIENCE {
            let errors = js(page, "return (window.__orion || {}).jsErrors || []").await;
            let refused = js(page, "return (window.__orion || {}).errors || []").await;
            panic!("page never showed {what} (script errors: {errors}; refused: {refused})");
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// Clicks the element `css` once it is shown.
pub async fn press(page: &Browser, css: &str) {
    let sel = css.replace('\'', "\\'");
    wait_js(
        page,
        &format!("(() => {{ const e = document.querySelector('{sel}'); return e && !e.closest('[hidden]') }})()"),
        css,
    )
    .await;
    for attempt in 0.. {
        let element = page.find(Locator::Css(css)).await.expect("element");
        match element.click().await {
            Ok(()) => return,
            Err(e) if attempt < 3 && e.to_string().contains("stale element") => continue,
            Err(e) => panic!("click {css}: {e}"),
        }
    }
}

/// Types `keys` into the element `css`.
pub async fn type_into(page: &Browser, css: &str, keys: &str) {
    page.find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("{css}: {e}"))
        .send_keys(keys)
        .await
        .expect("typed");
}

/// Presses `keys` one after the other on the keyboard, as a person would: they go to whatever
/// has the focus (WebDriver key codes: TAB, ENTER, UP, RIGHT below).
pub async fn keys(page: &Browser, keys: &str) {
    use fantoccini::actions::{InputSource, KeyAction, KeyActions};
    let mut typing = KeyActions::new("keyboard".into());
    for value in keys.chars() {
        typing = typing
            .then(KeyAction::Down { value })
            .then(KeyAction::Up { value });
    }
    page.perform_actions(typing).await.expect("keys pressed");
}

/// WebDriver's Tab key.
pub const TAB: &str = "\u{E004}";
/// WebDriver's Enter key.
pub const ENTER: &str = "\u{E007}";
/// WebDriver's up arrow.
pub const UP: &str = "\u{E013}";
/// WebDriver's right arrow.
pub const RIGHT: &str = "\u{E014}";

/// From the top of the page (nothing focused), presses Tab until the focus is on an element
/// matching `css` (at most 60 times).
pub async fn tab_to(page: &Browser, css: &str) {
    let sel = css.replace('\'', "\\'");
    js(
        page,
        "if (document.activeElement) document.activeElement.blur(); return 1",
    )
    .await;
    for _ in 0..60 {
        let there = js(
            page,
            &format!(
                "return !!(document.activeElement && document.activeElement.matches('{sel}'))"
            ),
        )
        .await;
        if there == json!(true) {
            return;
        }
        keys(page, TAB).await;
    }
    panic!("Tab never reached {css}");
}

/// Text of the element `css` ("" when there is none).
pub async fn text(page: &Browser, css: &str) -> String {
    let sel = css.replace('\'', "\\'");
    let v = js(
        page,
        &format!("const e = document.querySelector('{sel}'); return e ? e.textContent : ''"),
    )
    .await;
    v.as_str().unwrap_or_default().to_string()
}

/// Waits until the element `css` reads `want` somewhere in its text.
pub async fn wait_text(page: &Browser, css: &str, want: &str) {
    let sel = css.replace('\'', "\\'");
    let want_js = serde_json::to_string(want).expect("a string");
    wait_js(
        page,
        &format!("(document.querySelector('{sel}') || {{textContent: ''}}).textContent.includes({want_js})"),
        &format!("{css} saying {want:?}"),
    )
    .await;
}

/// Opens `path` as `name` (`?name=`) and waits for the socket to be up.
pub async fn open(page: &Browser, base: &str, path: &str, name: &str) {
    let sep = if path.contains('?') { '&' } else { '?' };
    page.goto(&format!("{base}{path}{sep}name={name}"))
        .await
        .expect("page loads");
    wait_js(
        page,
        "document.getElementById('conn').className === 'up'",
        "online",
    )
    .await;
}

/// axe-core's source, from `ORION_AXE` or `tests/axe/node_modules` (`.ci/run` installs it).
pub fn axe_source() -> String {
    let path = std::env::var("ORION_AXE").unwrap_or_else(|_| {
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/axe/node_modules/axe-core/axe.min.js"
        )
        .to_string()
    });
    std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "axe-core is missing at {path} ({e}): install it with \
             `npm install --prefix tests/axe` (.ci/run does), or set ORION_AXE to axe.min.js"
        )
    })
}

/// Runs axe-core on the page as it stands: its serious and critical violations (WCAG 2.1 A
/// and AA rules and best practices), each as `rule: help [elements]`.
pub async fn axe_violations(page: &Browser, axe: &str) -> Vec<String> {
    let loaded = js(page, &format!("{axe}\n;return typeof window.axe")).await;
    assert_eq!(loaded, "object", "axe-core loads into the page");
    let found = page
        .execute_async(
            "const done = arguments[arguments.length - 1]; \
             window.axe.run(document, { resultTypes: ['violations'] }) \
               .then((r) => done(r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical') \
                 .map((v) => `${v.id}: ${v.help} [${v.nodes.slice(0, 4).map((n) => n.target.join(' ')).join(', ')}]`))) \
               .catch((e) => done([`axe failed: ${e}`]));",
            vec![],
        )
        .await
        .expect("axe runs");
    found
        .as_array()
        .into_iter()
        .flatten()
        .map(|v| v.as_str().unwrap_or_default().to_string())
        .collect()
}
