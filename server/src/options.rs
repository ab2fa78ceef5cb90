//! `orion-server`'s command line: every setting a flag (`Options`), each also read from the
//! environment (`ORION_` and the flag's long name in upper case, `-` as `_`) and from a
//! TOML file (`--config`, keys the flags' long names; `config_file.rs`), and the tools that
//! run instead of the server (`backup`, `restore`). Precedence: a flag, then the environment,
//! then the file, then the default. `main` parses and dispatches; nothing here runs anything.
//!
//! A new setting is one field of `Options` (with `env = "ORION_…"`, and `value_delimiter =
//! ','` if it repeats) and one line in [`Options::config`]; the file, `--print-config` and
//! the environment follow from the field.

use crate::scheduling::CpuRange;
use crate::server::Config;
use clap::{Parser, Subcommand, ValueEnum};
use ipnet::IpNet;
use serde::Serialize;
use std::net::IpAddr;
use std::path::PathBuf;

/// The Orion Online lobby server.
#[derive(Parser, Debug, Serialize)]
#[command(version, about, args_conflicts_with_subcommands = true)]
#[serde(rename_all = "kebab-case")]
pub struct Options {
    /// A tool to run instead of the server.
    #[command(subcommand)]
    #[serde(skip)]
    pub command: Option<Tool>,
    /// A TOML file of settings, its keys the flags' long names (`listen = "0.0.0.0:7878"`);
    /// flags and the environment override it.
    #[arg(long, env = "ORION_CONFIG", value_name = "FILE")]
    #[serde(skip)]
    pub config: Option<PathBuf>,
    /// Print the effective settings (TOML, secrets masked) and exit.
    #[arg(long)]
    #[serde(skip)]
    pub print_config: bool,
    /// Address to listen on.
    #[arg(long, env = "ORION_LISTEN", default_value = "127.0.0.1:7878")]
    pub listen: String,
    /// Where events are kept: a SQLite file (the default, embedded), `:memory:` for a
    /// throwaway store, or a PostgreSQL URL (`postgres://user[:password]@host:port/db`).
    #[arg(
        long = "store",
        visible_alias = "db",
        env = "ORION_STORE",
        default_value = "orion.db"
    )]
    pub store: String,
    /// Days to keep finished games (events, chat) and guest identities not seen since; 0
    /// keeps everything.
    #[arg(long, env = "ORION_RETAIN_DAYS", default_value_t = 90)]
    pub retain_days: u64,
    /// An origin, besides this server's own, whose web pages may open a WebSocket here
    /// (`https://orion.example`); repeatable. Clients that send no Origin (terminal client,
    /// bots) need none.
    #[arg(
        long = "allow-origin",
        value_name = "ORIGIN",
        env = "ORION_ALLOW_ORIGIN",
        value_delimiter = ','
    )]
    pub allow_origin: Vec<String>,
    /// When a commit counts as stored, before its events are sent (SQLite store):
    /// `normal`, once written to the operating system (survives the server being killed; a
    /// power cut may lose the last seconds); `full`, once on the disk (an fdatasync per group
    /// commit; survives a power cut).
    #[arg(long, value_enum, env = "ORION_SYNC", default_value_t = SyncMode::Normal)]
    pub sync: SyncMode,
    /// Most spectators one room takes; more are refused with `full`.
    #[arg(long, env = "ORION_MAX_SPECTATORS", default_value_t = crate::MAX_SPECTATORS)]
    pub max_spectators: usize,
    /// Join a cluster of nodes through this NATS server (`nats://host:port`); needs a
    /// PostgreSQL `--store`. Without it the server runs alone.
    #[arg(long, value_name = "URL", env = "ORION_BUS")]
    pub bus: Option<String>,
    /// This node's name in the cluster (letters, digits, `-`, `_`); random if not given.
    #[arg(long, env = "ORION_NODE", requires = "bus")]
    pub node: Option<String>,
    /// Threads computer players think on, apart from the rooms' runtime.
    #[arg(long, env = "ORION_BOT_THREADS", default_value_t = 1)]
    pub bot_threads: usize,
    /// CPUs the computer players think on, and the rooms do not (`1`, `2-3`, `4,6`; Linux's
    /// numbering): a search on the rooms' core slows their broadcasts, so on a machine with
    /// cores to spare give the bots their own. The rest of the server runs on the other CPUs
    /// it may use. Not given: everything runs anywhere.
    #[arg(
        long,
        env = "ORION_BOT_CPUS",
        value_delimiter = ',',
        value_name = "CPUS"
    )]
    #[serde(serialize_with = "as_strings")]
    pub bot_cpus: Vec<CpuRange>,
    /// Most games with computer players at once; past it `add_bot` and `quick` with `bots`
    /// are refused with `full`.
    #[arg(long, env = "ORION_MAX_BOT_GAMES", default_value_t = crate::MAX_BOT_GAMES)]
    pub max_bot_games: usize,
    /// How long `quick` with `bots: true` waits for people before computer players fill the
    /// missing seats, in milliseconds.
    #[arg(long, env = "ORION_BOT_WAIT", default_value_t = crate::BOT_WAIT)]
    pub bot_wait: u64,
    /// The SMTP relay notices and confirmation links are mailed through:
    /// `smtp://host:port` (plain), `smtp://user:password@host:587?tls=required` (STARTTLS) or
    /// `smtps://user:password@host:465`. Without it no e-mail is sent.
    #[arg(long, value_name = "URL", env = "ORION_SMTP", requires = "mail_from")]
    pub smtp: Option<String>,
    /// The sender of those mails (`Orion Online <orion@example.org>`).
    #[arg(long, value_name = "ADDRESS", env = "ORION_MAIL_FROM")]
    pub mail_from: Option<String>,
    /// The server's address as players reach it (`https://orion.example`): the links in
    /// notices and mails, and an origin whose pages may open a WebSocket here (behind a
    /// proxy that changes the host or the scheme); by default `http://` and the listen address.
    #[arg(long, value_name = "URL", env = "ORION_PUBLIC_URL")]
    pub public_url: Option<String>,
    /// An account that administers the site: a moderator, who may also make other accounts
    /// moderators (`promote`); repeatable. The name is claimed with `register` as any other.
    #[arg(
        long = "admin",
        value_name = "NAME",
        env = "ORION_ADMIN",
        value_delimiter = ','
    )]
    pub admin: Vec<String>,
    /// A Web Push endpoint prefix taken without the checks (https, not an address of this
    /// network): a push service run inside it, or a test's (`http://127.0.0.1:`); repeatable.
    #[arg(
        long = "allow-push-endpoint",
        value_name = "PREFIX",
        env = "ORION_ALLOW_PUSH_ENDPOINT",
        value_delimiter = ','
    )]
    pub allow_push_endpoint: Vec<String>,
    /// A reverse proxy whose `X-Forwarded-For`, `X-Forwarded-Host`, `X-Forwarded-Proto` and
    /// `Forwarded` headers are believed (an address or a network, `127.0.0.1` or
    /// `10.0.0.0/8`); repeatable. Without it those headers are ignored and a client is the
    /// address its TCP connection comes from.
    #[arg(
        long = "trust-proxy",
        value_name = "CIDR",
        env = "ORION_TRUST_PROXY",
        value_delimiter = ',',
        value_parser = parse_cidr
    )]
    #[serde(serialize_with = "as_strings")]
    pub trust_proxy: Vec<IpNet>,
    /// Log level or filter (`info`, `debug`, `orion_server=trace`).
    #[arg(long, env = "ORION_LOG", default_value = "info")]
    pub log: String,
    /// How log lines are written: `text` for people, `json` (one object a line) for a log
    /// collector.
    #[arg(long, value_enum, env = "ORION_LOG_FORMAT", default_value_t = LogFormat::Text)]
    pub log_format: LogFormat,
}

/// The tools `orion-server` runs instead of the server.
#[derive(Subcommand, Debug)]
pub enum Tool {
    /// Copies a SQLite store, running or not, into FILE: one self-contained SQLite file
    /// holding every game, account and rating committed when the copy began.
    Backup {
        /// The store to copy (a SQLite file).
        #[arg(
            long = "store",
            visible_alias = "db",
            env = "ORION_STORE",
            default_value = "orion.db"
        )]
        store: String,
        /// Where the copy goes; refused if it exists.
        file: PathBuf,
    },
    /// Makes a store from a backup: `--store` must not exist yet. Start the server on it.
    Restore {
        /// A file `orion-server backup` made.
        file: PathBuf,
        /// The store to create (a SQLite file).
        #[arg(
            long = "store",
            visible_alias = "db",
            env = "ORION_STORE",
            default_value = "orion.db"
        )]
        store: String,
    },
}

/// `--sync`: how durable a commit is when its events go out.
#[derive(ValueEnum, Clone, Copy, Debug, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SyncMode {
    /// Written to the operating system.
    Normal,
    /// On the disk.
    Full,
}

/// `--log-format`.
#[derive(ValueEnum, Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum LogFormat {
    /// Lines for people.
    Text,
    /// One JSON object a line (tracing-subscriber's `json`).
    Json,
}

impl Options {
    /// The server's configuration these options give.
    pub fn config(&self) -> Config {
        Config {
            db: self.store.clone(),
            retain: (self.retain_days > 0).then(|| self.retain_days.saturating_mul(24 * 3_600_000)),
            allowed_origins: self.allow_origin.clone(),
            admins: self.admin.clone(),
            sync: match self.sync {
                SyncMode::Normal => crate::Durability::Normal,
                SyncMode::Full => crate::Durability::Full,
            },
            max_spectators: self.max_spectators,
            bot_threads: self.bot_threads,
            bot_cpus: CpuRange::expand(&self.bot_cpus),
            max_bot_games: self.max_bot_games,
            bot_wait: self.bot_wait,
            notify: crate::NotifyConfig {
                smtp: self.smtp.clone(),
                mail_from: self.mail_from.clone(),
                public_url: self.public_url.clone(),
                allow_push_endpoints: self.allow_push_endpoint.clone(),
                relay: None,
            },
            trusted_proxies: self.trust_proxy.clone(),
            ..Default::default()
        }
    }
}

/// `--trust-proxy`: a network (`10.0.0.0/8`) or one address (`127.0.0.1`, `::1`).
fn parse_cidr(text: &str) -> Result<IpNet, String> {
    let text = text.trim();
    if let Ok(net) = text.parse::<IpNet>() {
        return Ok(net.trunc());
    }
    text.parse::<IpAddr>().map(IpNet::from).map_err(|_| {
        format!("`{text}` is neither an address (127.0.0.1) nor a network (10.0.0.0/8)")
    })
}

/// Writes networks as their text (`127.0.0.1/32`), which `parse_cidr` reads back.
fn as_strings<S: serde::Serializer, T: ToString>(items: &[T], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(items.iter().map(ToString::to_string))
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_options_are_a_valid_command() {
        Options::command().debug_assert();
    }

    #[test]
    fn a_proxy_is_an_address_or_a_network() {
        assert_eq!(parse_cidr("127.0.0.1").unwrap().to_string(), "127.0.0.1/32");
        assert_eq!(parse_cidr("10.1.2.3/8").unwrap().to_string(), "10.0.0.0/8");
        assert_eq!(parse_cidr("::1").unwrap().to_string(), "::1/128");
        assert!(parse_cidr("proxy.local")
            .unwrap_err()
            .contains("proxy.local"));
    }
}
