//! The web client (`web/` at the top of the workspace), embedded in the binary with
//! `include_bytes!` so the server needs no files at run time and works offline. The page is
//! served at `/`, `/r/ROOM`, `/i/CODE`, `/g/ROOM`, `/learn`, `/learn/ID`, `/rules` and
//! `/rules/GAME` (its script reads the path); the files it loads at
//! `/assets/NAME`.
//!
//! Caching: every answer carries a strong `ETag` (SHA-256 of the body) and `cache-control:
//! no-cache`, so a browser revalidates each time and gets a body-less 304 while the build is
//! unchanged; a new server build is seen at once.

use sha2::{Digest, Sha256};
use std::sync::OnceLock;

/// One embedded file.
pub struct Asset {
    /// Its name under `/assets/` (the file name in `web/`).
    pub name: &'static str,
    /// The `content-type` it is served with.
    pub content_type: &'static str,
    /// The bytes.
    pub body: &'static [u8],
}

macro_rules! asset {
    ($name:literal, $type:literal) => {
        Asset {
            name: $name,
            content_type: $type,
            body: include_bytes!(concat!("../../web/", $name)),
        }
    };
}

/// The page itself.
pub const INDEX: Asset = asset!("index.html", "text/html; charset=utf-8");

/// Every file under `/assets/` (`boards/NAME.js`: a game system's board module). Adding a
/// file to `web/` means adding a line here (a test checks that none is left out).
pub const ASSETS: &[Asset] = &[
    asset!("style.css", "text/css; charset=utf-8"),
    asset!("door.css", "text/css; charset=utf-8"),
    asset!("app.js", "text/javascript; charset=utf-8"),
    asset!("net.js", "text/javascript; charset=utf-8"),
    asset!("dom.js", "text/javascript; charset=utf-8"),
    asset!("lobby.js", "text/javascript; charset=utf-8"),
    asset!("account.js", "text/javascript; charset=utf-8"),
    asset!("tv.js", "text/javascript; charset=utf-8"),
    asset!("icons.js", "text/javascript; charset=utf-8"),
    asset!("room.js", "text/javascript; charset=utf-8"),
    asset!("plan.js", "text/javascript; charset=utf-8"),
    asset!("replay.js", "text/javascript; charset=utf-8"),
    asset!("movelist.js", "text/javascript; charset=utf-8"),
    asset!("words.js", "text/javascript; charset=utf-8"),
    asset!("record.js", "text/javascript; charset=utf-8"),
    asset!("learn.js", "text/javascript; charset=utf-8"),
    asset!("learn.css", "text/css; charset=utf-8"),
    asset!("rules.js", "text/javascript; charset=utf-8"),
    asset!("rules.css", "text/css; charset=utf-8"),
    asset!("computer.js", "text/javascript; charset=utf-8"),
    asset!("catalogue.js", "text/javascript; charset=utf-8"),
    asset!("svg.js", "text/javascript; charset=utf-8"),
    asset!("position.js", "text/javascript; charset=utf-8"),
    asset!("boards/index.js", "text/javascript; charset=utf-8"),
    asset!("boards/orion.js", "text/javascript; charset=utf-8"),
    asset!("boards/orbit.js", "text/javascript; charset=utf-8"),
    asset!("boards/orbs.js", "text/javascript; charset=utf-8"),
    asset!("icon.svg", "image/svg+xml"),
    asset!("notify.js", "text/javascript; charset=utf-8"),
    asset!("moderation.js", "text/javascript; charset=utf-8"),
    asset!("moderation.css", "text/css; charset=utf-8"),
    asset!("icon-192.png", "image/png"),
    asset!("icon-512.png", "image/png"),
];

/// The service worker, served at `/sw.js` (a worker's scope is the folder it is served
/// from: this one covers the whole site).
pub const SERVICE_WORKER: Asset = asset!("sw.js", "text/javascript; charset=utf-8");
/// The web app manifest, at `/manifest.webmanifest` (installing the page to a home screen).
pub const MANIFEST: Asset = asset!("manifest.webmanifest", "application/manifest+json");

/// The file a request path names: the page for `/`, `/r/ROOM`, `/i/CODE`, `/g/ROOM` (a
/// finished game's replay, from its record `/g/ROOM.txt`), `/learn` and `/learn/ID` (the
/// lessons), `/rules` and `/rules/GAME` (the rules pages), `/moderation` (the moderators'
/// view), an asset for
/// `/assets/NAME`; `None` for anything else.
pub fn find(path: &str) -> Option<&'static Asset> {
    if path == "/"
        || path == "/learn"
        || path == "/rules"
        || path == "/moderation"
        || is_link(path, "/r/")
        || is_link(path, "/i/")
        || is_link(path, "/g/")
        || is_link(path, "/learn/")
        || is_link(path, "/rules/")
    {
        return Some(&INDEX);
    }
    match path {
        "/sw.js" => return Some(&SERVICE_WORKER),
        "/manifest.webmanifest" => return Some(&MANIFEST),
        _ => {}
    }
    let name = path.strip_prefix("/assets/")?;
    ASSETS.iter().find(|a| a.name == name)
}

/// Whether `path` is `prefix` and one id (letters, digits, `-`, `_`; at most 64).
fn is_link(path: &str, prefix: &str) -> bool {
    path.strip_prefix(prefix).is_some_and(|id| {
        !id.is_empty()
            && id.len() <= 64
            && id
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    })
}

impl Asset {
    /// The strong `ETag` of the body (quoted hex of its SHA-256, computed once).
    pub fn etag(&self) -> &'static str {
        static TAGS: OnceLock<Vec<String>> = OnceLock::new();
        let tags = TAGS.get_or_init(|| {
            std::iter::once(&INDEX)
                .chain(ASSETS)
                .map(|a| format!("\"{}\"", &hex::encode(Sha256::digest(a.body))[..32]))
                .collect()
        });
        let i = if self.name == INDEX.name {
            0
        } else {
            1 + ASSETS.iter().position(|a| a.name == self.name).unwrap_or(0)
        };
        tags.get(i).map(String::as_str).unwrap_or("\"\"")
    }
}

/// The assets only the lessons and the rules pages load (`app.js` imports `learn.js` on
/// `/learn`, which links `learn.css`, and `rules.js` on `/rules`, which links `rules.css`; both
/// import `computer.js`): a visit to the front door or a room does without them.
#[cfg(test)]
const LESSONS_ONLY: [&str; 2] = ["learn.js", "learn.css"];
#[cfg(test)]
const RULES_ONLY: [&str; 3] = ["rules.js", "rules.css", "computer.js"];

/// The moderation dialog and view (`room.js` imports `moderation.js` when a name is pressed,
/// `app.js` on `/moderation`; it links `moderation.css`): a visit that reports nobody does
/// without them.
#[cfg(test)]
const MODERATION_ONLY: [&str; 2] = ["moderation.js", "moderation.css"];

/// The web app's icons: fetched by a browser that installs the page (the manifest's), never
/// by a visit.
#[cfg(test)]
const INSTALL_ONLY: [&str; 2] = ["icon-192.png", "icon-512.png"];

/// Bytes of the page and every asset a visit to the front door or a room may load.
#[cfg(test)]
pub fn total_bytes() -> usize {
    INDEX.body.len()
        + (ASSETS.iter())
            .filter(|a| {
                !LESSONS_ONLY.contains(&a.name)
                    && !RULES_ONLY.contains(&a.name)
                    && !INSTALL_ONLY.contains(&a.name)
                    && !MODERATION_ONLY.contains(&a.name)
            })
            .map(|a| a.body.len())
            .sum::<usize>()
}

/// Bytes the lessons add to a first visit of `/learn`.
#[cfg(test)]
pub fn lessons_bytes() -> usize {
    (ASSETS.iter())
        .filter(|a| LESSONS_ONLY.contains(&a.name))
        .map(|a| a.body.len())
        .sum()
}

/// Bytes the rules pages add to a first visit of `/rules` (`computer.js` counted here, though
/// `/learn` loads it too).
#[cfg(test)]
pub fn rules_bytes() -> usize {
    (ASSETS.iter())
        .filter(|a| RULES_ONLY.contains(&a.name))
        .map(|a| a.body.len())
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_of_web_is_served() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../web");
        let names = |sub: &str| -> Vec<String> {
            std::fs::read_dir(format!("{dir}/{sub}"))
                .expect("web/")
                .filter_map(|e| {
                    let e = e.ok()?;
                    let name = e.file_name().into_string().ok()?;
                    e.file_type()
                        .ok()?
                        .is_file()
                        .then(|| format!("{sub}{name}"))
                })
                .collect()
        };
        let mut on_disk = names("");
        on_disk.extend(names("boards/"));
        on_disk.sort();
        let mut served: Vec<String> = [&INDEX, &SERVICE_WORKER, &MANIFEST]
            .into_iter()
            .chain(ASSETS)
            .map(|a| a.name.to_string())
            .collect();
        served.sort();
        assert_eq!(on_disk, served);
    }

    #[test]
    fn links_open_the_page_and_assets_are_found_by_name() {
        for path in [
            "/",
            "/r/abc123",
            "/i/XK4F9Q",
            "/learn",
            "/learn/hydra-2",
            "/rules",
            "/rules/orbs",
        ] {
            assert_eq!(find(path).map(|a| a.name), Some("index.html"), "{path}");
        }
        assert_eq!(
            find("/assets/boards/orion.js").map(|a| a.name),
            Some("boards/orion.js")
        );
        assert_eq!(find("/sw.js").map(|a| a.name), Some("sw.js"));
        assert_eq!(
            find("/manifest.webmanifest").map(|a| a.content_type),
            Some("application/manifest+json")
        );
        for path in [
            "/r/",
            "/r/a/b",
            "/assets/",
            "/assets/../Cargo.toml",
            "/index.html",
        ] {
            assert!(find(path).is_none(), "{path}");
        }
    }

    #[test]
    fn the_page_stays_light() {
        // 152.5 KiB with a puzzle's undo and hints, the quiet live board and ORION's choice
        // buttons (README, page weight): the bound moved from 150 KiB for them; to 166 KiB
        // for notifications (`notify.js`, 4.2 KB: the service worker registered, `notify`
        // shown, the account's panel); to 172 KiB for correspondence (`plan.js`, 4.2 KB: a
        // turn planned on the server and sent; the lobby's seeks, 2.5 KB); to 175 KiB for
        // moderation's hooks (a report button on every name, the header's link to the
        // moderator's view: 1.8 KB; `moderation.js` and its styles load only when used), no
        // further.
        assert!(total_bytes() < 175 * 1024, "{} bytes", total_bytes());
        // The lessons' own files, loaded on /learn only: 14.4 KB, 17.3 KB with a claimed
        // account's progress kept on the server and the links to the rules (README, page
        // weight).
        assert!(lessons_bytes() < 18 * 1024, "{} bytes", lessons_bytes());
        // The rules pages' own files, loaded on /rules only: 6.6 KB, 2.7 KB gzipped.
        assert!(rules_bytes() < 8 * 1024, "{} bytes", rules_bytes());
        assert_ne!(INDEX.etag(), ASSETS[0].etag());
    }
}
