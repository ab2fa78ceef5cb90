//! What the store keeps of claimed names: accounts (name, its unique keys, password hash), the
//! hashes of the tokens its devices reach it by, ratings per account and game, the fewest
//! clicks each account solved each puzzle in, and the lesson steps each account has done. A trait of its own beside [`super::Store`],
//! implemented by both stores (`accounts_sqlite.rs`, `accounts_pg.rs`), async in the same
//! way as the `Store`. Plain data: no
//! game's types, no rating crate's.

use super::error::StoreError;
use crate::clock::Millis;

/// A claimed name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccountRecord {
    /// The player id it owns (the one its guest had when he claimed the name).
    pub id: String,
    /// The name as claimed (shown).
    pub name: String,
    /// The name's caseless key (`text::name_key`): no two accounts share one; `login` finds
    /// the account by it.
    pub key: String,
    /// The name's confusable skeleton (`text::name_skeleton`): no two accounts share one
    /// (accounts claimed before skeletons that collide keep theirs with `#id` appended).
    pub skeleton: String,
    /// The password's Argon2id hash, a PHC string.
    pub hash: String,
}

/// Tokens one account may hold at once (one per device it logged in from): a login past it
/// revokes the oldest.
pub const MAX_TOKENS_PER_ACCOUNT: usize = 10;

/// One account's rating in one game: the Weng-Lin μ and σ, and rated games played.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatingRecord {
    /// Skill estimate.
    pub mu: f64,
    /// Its uncertainty.
    pub sigma: f64,
    /// Rated games played.
    pub games: u32,
}

/// What became of a claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Claimed {
    /// The name is this player's now.
    Done,
    /// Another account holds the name (in some case or width, or a look-alike).
    NameTaken,
    /// This player has claimed a name already.
    AccountExists,
}

/// One line of a game's board.
#[derive(Clone, Debug, PartialEq)]
pub struct RatedLine {
    /// Place, from 1.
    pub rank: u32,
    /// Account (player) id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Its rating.
    pub rating: RatingRecord,
}

/// One line of a puzzle's board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolvedLine {
    /// Place, from 1.
    pub rank: u32,
    /// Account (player) id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Fewest clicks.
    pub clicks: u32,
    /// When that count was first reached (server time).
    pub at: Millis,
}

/// The pair window: at most `most` rated games of one game between any two accounts since
/// server time `since` have their ratings stored (the policy is `rating.rs`'s).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PairWindow {
    /// The window's start (server time).
    pub since: Millis,
    /// Most rated games of two accounts together in it.
    pub most: u32,
}

impl PairWindow {
    /// No bound (for tests of the rest).
    pub const UNBOUNDED: PairWindow = PairWindow {
        since: 0,
        most: u32::MAX,
    };
}

/// What became of a rated game's ratings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Recorded {
    /// Stored: each account's games played went up by one.
    Stored,
    /// Nothing changed: the room was rated already, or is unknown.
    RatedAlready,
    /// Nothing changed: two of its accounts have played [`PairWindow::most`] rated games of
    /// this game together in the window already.
    PairLimit,
}

/// Accounts, ratings and puzzle bests. Boards are ordered best first: a game's by μ, then
/// games played (more first), then name key; a puzzle's by clicks, then the date reached
/// (earlier first), then name key. Ranks are places in that order.
#[async_trait::async_trait]
pub trait AccountStore: Send + Sync + 'static {
    /// Makes `account` a claimed name, at server time `at`, reached by the token whose hash is
    /// `token` (the claiming guest's), unless its key, its skeleton or its player id is
    /// claimed already.
    async fn claim(
        &self,
        account: &AccountRecord,
        token: &str,
        at: Millis,
    ) -> Result<Claimed, StoreError>;
    /// The account whose name has this caseless key.
    async fn account_by_key(&self, key: &str) -> Result<Option<AccountRecord>, StoreError>;
    /// The account whose name has this skeleton.
    async fn account_by_skeleton(
        &self,
        skeleton: &str,
    ) -> Result<Option<AccountRecord>, StoreError>;
    /// The account of this player id.
    async fn account_by_id(&self, id: &str) -> Result<Option<AccountRecord>, StoreError>;
    /// The account reached by the token whose hash (`token::hash`) is `token`.
    async fn account_by_token(&self, token: &str) -> Result<Option<AccountRecord>, StoreError>;
    /// Gives account `id` one more token (its hash), at server time `at`; past
    /// [`MAX_TOKENS_PER_ACCOUNT`] the oldest are revoked.
    async fn add_token(&self, id: &str, token: &str, at: Millis) -> Result<(), StoreError>;
    /// Revokes every token of account `id` but `keep` (a hash); returns how many went. A
    /// revoked token no longer says `hello` as anyone.
    async fn revoke_tokens(&self, id: &str, keep: &str) -> Result<u64, StoreError>;
    /// For each of `players` that is an account: its rating in `game` (`None`: no rated game
    /// yet). Guests are left out.
    async fn ratings(
        &self,
        game: &str,
        players: &[String],
    ) -> Result<Vec<(String, Option<RatingRecord>)>, StoreError>;
    /// Stores the ratings a finished rated game gave, once per room, unless two of its
    /// accounts have used up their `window` (checked in the same transaction, so two games
    /// ending at once cannot both pass it). Each account's games played goes up by one.
    async fn record_ratings(
        &self,
        room: &str,
        game: &str,
        ratings: &[(String, RatingRecord)],
        at: Millis,
        window: PairWindow,
    ) -> Result<Recorded, StoreError>;
    /// The most rated games of `game` that any two of `players` have played together since
    /// server time `since` (0 for fewer than two accounts).
    async fn rated_together(
        &self,
        game: &str,
        players: &[String],
        since: Millis,
    ) -> Result<u32, StoreError>;
    /// Up to `limit` lines of `game`'s board after place `after`, and how many are on it.
    async fn rated_board(
        &self,
        game: &str,
        after: u32,
        limit: u32,
    ) -> Result<(Vec<RatedLine>, u32), StoreError>;
    /// `player`'s line on `game`'s board.
    async fn rated_line(&self, game: &str, player: &str) -> Result<Option<RatedLine>, StoreError>;
    /// Keeps `clicks` as `player`'s best for `puzzle` if it is fewer than his best so far.
    async fn record_solve(
        &self,
        puzzle: &str,
        player: &str,
        clicks: u32,
        at: Millis,
    ) -> Result<(), StoreError>;
    /// Up to `limit` lines of `puzzle`'s board after place `after`, and how many are on it.
    async fn solved_board(
        &self,
        puzzle: &str,
        after: u32,
        limit: u32,
    ) -> Result<(Vec<SolvedLine>, u32), StoreError>;
    /// `player`'s line on `puzzle`'s board.
    async fn solved_line(
        &self,
        puzzle: &str,
        player: &str,
    ) -> Result<Option<SolvedLine>, StoreError>;
    /// Keeps `steps` as the steps of `lesson` account `id` has done, at server time `at`, if
    /// it is more than it had (a lesson done on one device stays done when another finishes
    /// fewer of its steps); returns the steps kept.
    async fn record_lesson(
        &self,
        id: &str,
        lesson: &str,
        steps: u32,
        at: Millis,
    ) -> Result<u32, StoreError>;
    /// Every lesson account `id` has done steps of, with how many, by lesson id.
    async fn lesson_progress(&self, id: &str) -> Result<Vec<(String, u32)>, StoreError>;
}
