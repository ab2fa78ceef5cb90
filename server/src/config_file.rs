//! The settings file (`--config orion.toml`) and `--print-config`. The file's keys are the
//! flags' long names (`listen = "0.0.0.0:7878"`, `allow-origin = ["https://a", "https://b"]`
//! for a repeatable flag); each value becomes that flag's default before clap parses the
//! command line, so clap's own order does the rest: a flag, then its `ORION_…` variable,
//! then the file, then the built-in default. Every value is checked by the flag's own parser
//! and an unknown key is refused, each with the file and the key named.

use crate::options::Options;
use clap::{ArgAction, CommandFactory, FromArgMatches};
use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// Flags that are not settings, so not keys of the file.
const NOT_SETTINGS: [&str; 4] = ["config", "print-config", "help", "version"];
/// What a masked secret is printed as.
const MASK: &str = "***";

/// Why the settings could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The command line (or an `ORION_…` variable) is wrong, or asks for help: clap says
    /// what, and `main` lets it (`clap::Error::exit`).
    #[error("{0}")]
    Args(#[from] clap::Error),
    /// The file could not be read.
    #[error("cannot read the settings file {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    /// The file is not TOML.
    #[error("{path} is not a valid TOML file: {message}")]
    Toml { path: PathBuf, message: String },
    /// A key that is no flag's long name.
    #[error("{path}: unknown key `{key}`; the keys are the flags' long names: {known}")]
    UnknownKey {
        path: PathBuf,
        key: String,
        known: String,
    },
    /// A value the flag would not take.
    #[error("{path}: `{key}`: {message}")]
    BadValue {
        path: PathBuf,
        key: String,
        message: String,
    },
}

/// The options this process was started with: its arguments, its environment and the file
/// `--config` (or `ORION_CONFIG`) names.
pub fn parse() -> Result<Options, ConfigError> {
    parse_from(std::env::args_os())
}

/// The options `args` (the program's name first) give, with this process's environment.
pub fn parse_from<I, T>(args: I) -> Result<Options, ConfigError>
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let args: Vec<OsString> = args.into_iter().map(Into::into).collect();
    let mut command = Options::command();
    // A first pass only to find `--config`; whatever else is wrong the real pass says.
    let file = Options::command()
        .ignore_errors(true)
        .try_get_matches_from(&args)
        .ok()
        .and_then(|m| m.get_one::<PathBuf>("config").cloned());
    if let Some(path) = file {
        command = with_file(command, &path)?;
    }
    let matches = command.try_get_matches_from_mut(&args)?;
    Ok(Options::from_arg_matches(&matches)?)
}

/// `command` with the settings of the file at `path` as its flags' defaults.
fn with_file(mut command: clap::Command, path: &Path) -> Result<clap::Command, ConfigError> {
    let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
        path: path.to_owned(),
        source,
    })?;
    let table: toml::Table = toml::from_str(&text).map_err(|e| ConfigError::Toml {
        path: path.to_owned(),
        message: e.to_string(),
    })?;
    for (key, value) in table {
        let bad = |message: String| ConfigError::BadValue {
            path: path.to_owned(),
            key: key.clone(),
            message,
        };
        let Some(arg) = command
            .get_arguments()
            .find(|a| a.get_long() == Some(key.as_str()) && !NOT_SETTINGS.contains(&key.as_str()))
        else {
            return Err(ConfigError::UnknownKey {
                path: path.to_owned(),
                key,
                known: keys(&command).join(", "),
            });
        };
        let repeats = matches!(arg.get_action(), ArgAction::Append);
        let values = match value {
            toml::Value::Array(items) if repeats => items
                .into_iter()
                .map(|v| scalar(v).map_err(&bad))
                .collect::<Result<Vec<_>, _>>()?,
            toml::Value::Array(_) => {
                return Err(bad("takes one value, not a list".into()));
            }
            other => vec![scalar(other).map_err(&bad)?],
        };
        // The flag's own parser checks each value, as if it had been given on the line.
        let probe = clap::Command::new("orion.toml").no_binary_name(true).arg(
            arg.clone()
                .requires(clap::builder::Resettable::Reset)
                .env(None::<&str>),
        );
        for v in &values {
            probe
                .clone()
                .try_get_matches_from([OsString::from(format!("--{key}={v}"))])
                .map_err(|e| bad(clap_message(&e)))?;
        }
        let id = arg.get_id().clone();
        command = command.mut_arg(id, move |a| a.default_values(values));
    }
    Ok(command)
}

/// A file value as the text a flag would be given.
fn scalar(value: toml::Value) -> Result<String, String> {
    match value {
        toml::Value::String(s) => Ok(s),
        toml::Value::Integer(i) => Ok(i.to_string()),
        other => Err(format!(
            "a {} is not a value here: write a string or a whole number",
            other.type_str()
        )),
    }
}

/// The first line of a clap error, without its `error: ` prefix.
fn clap_message(error: &clap::Error) -> String {
    let text = error.to_string();
    let line = text.lines().next().unwrap_or_default();
    line.strip_prefix("error: ").unwrap_or(line).to_owned()
}

/// Every key the file may have.
fn keys(command: &clap::Command) -> Vec<&str> {
    command
        .get_arguments()
        .filter_map(|a| a.get_long())
        .filter(|l| !NOT_SETTINGS.contains(l))
        .collect()
}

/// The effective settings as a TOML file `--config` would read back, secrets masked: the
/// password of any URL (store, SMTP relay, bus) and any setting named like a secret.
pub fn printed(options: &Options) -> String {
    let mut table = match toml::Table::try_from(options) {
        Ok(table) => table,
        Err(e) => return format!("# the settings could not be written: {e}\n"),
    };
    for (key, value) in table.iter_mut() {
        mask_value(key, value);
    }
    toml::to_string(&table)
        .unwrap_or_else(|e| format!("# the settings could not be written: {e}\n"))
}

/// Masks the secrets in one setting's value.
fn mask_value(key: &str, value: &mut toml::Value) {
    match value {
        toml::Value::String(s) => {
            let secret = ["password", "secret", "token", "key"]
                .iter()
                .any(|word| key.contains(word));
            *s = if secret { MASK.to_owned() } else { mask_url(s) };
        }
        toml::Value::Array(items) => items.iter_mut().for_each(|v| mask_value(key, v)),
        _ => {}
    }
}

/// `text` with the password of its user info (`scheme://user:password@host`) and of any
/// `password=` query parameter replaced by [`MASK`]; anything else as it was.
pub fn mask_url(text: &str) -> String {
    let Some(start) = text.find("://").map(|i| i + 3) else {
        return text.to_owned();
    };
    let end = text[start..]
        .find(['/', '?', '#'])
        .map_or(text.len(), |i| start + i);
    let mut out = String::with_capacity(text.len());
    out.push_str(&text[..start]);
    let authority = &text[start..end];
    match authority.rsplit_once('@') {
        Some((user_info, host)) => {
            match user_info.split_once(':') {
                Some((user, _)) => out.push_str(&format!("{user}:{MASK}")),
                None => out.push_str(user_info),
            }
            out.push('@');
            out.push_str(host);
        }
        None => out.push_str(authority),
    }
    let rest = &text[end..];
    match rest.split_once('?') {
        Some((path, query)) => {
            out.push_str(path);
            out.push('?');
            let params: Vec<String> = query
                .split('&')
                .map(|p| match p.split_once('=') {
                    Some((k, _)) if k.eq_ignore_ascii_case("password") => format!("{k}={MASK}"),
                    _ => p.to_owned(),
                })
                .collect();
            out.push_str(&params.join("&"));
        }
        None => out.push_str(rest),
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_in_urls_are_masked_and_the_rest_kept() {
        for (url, shown) in [
            (
                "postgres://orion:s3cr%40t@db:5432/orion",
                "postgres://orion:***@db:5432/orion",
            ),
            (
                "smtps://mail:pa:ss@relay.example:465",
                "smtps://mail:***@relay.example:465",
            ),
            (
                "smtp://relay:587?tls=required&password=x",
                "smtp://relay:587?tls=required&password=***",
            ),
            ("postgres://orion@db/orion", "postgres://orion@db/orion"),
            ("orion.db", "orion.db"),
            ("nats://u:p@bus:4222", "nats://u:***@bus:4222"),
        ] {
            assert_eq!(mask_url(url), shown, "{url}");
        }
    }
}
