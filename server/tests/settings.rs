//! The real `orion-server` binary's settings: the same settings given as flags, as `ORION_…`
//! variables and as a `--config` file print the same effective configuration
//! (`--print-config`), secrets masked; flag beats environment beats file beats default; a
//! file with an unknown key or a bad value is refused, saying which; `--log-format json`
//! writes JSON lines.

use std::io::{BufRead, BufReader};
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_orion-server");

/// Every setting, as the flag's long name and one value (a repeatable one twice).
const SETTINGS: &[(&str, &str)] = &[
    ("listen", "127.0.0.1:9999"),
    ("store", "postgres://orion:hunter2@127.0.0.1:5432/orion"),
    ("retain-days", "7"),
    ("allow-origin", "https://a.example"),
    ("allow-origin", "https://b.example"),
    ("sync", "full"),
    ("max-spectators", "10"),
    ("bus", "nats://bus:busword@127.0.0.1:4222"),
    ("node", "n1"),
    ("bot-threads", "2"),
    ("bot-cpus", "1"),
    ("bot-cpus", "2-3"),
    ("max-bot-games", "3"),
    ("bot-wait", "500"),
    ("smtp", "smtps://mail:mailword@127.0.0.1:465"),
    ("mail-from", "Orion <orion@example.org>"),
    ("public-url", "https://orion.example"),
    ("allow-push-endpoint", "http://127.0.0.1:"),
    ("trust-proxy", "127.0.0.1"),
    ("trust-proxy", "10.0.0.0/8"),
    ("log", "debug"),
    ("log-format", "json"),
];

/// The binary run with `args` and only the environment `env` (no stray `ORION_…`).
fn run(args: &[String], env: &[(String, String)]) -> Output {
    Command::new(BIN)
        .args(args)
        .env_clear()
        .envs(env.iter().cloned())
        .output()
        .expect("run orion-server")
}

/// `--print-config` with `args` and `env`: what it printed (it must have succeeded).
fn printed(args: &[String], env: &[(String, String)]) -> String {
    let mut all = args.to_vec();
    all.push("--print-config".into());
    let out = run(&all, env);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// A fresh temporary file holding `text`.
fn file(tag: &str, text: &str) -> std::path::PathBuf {
    let path =
        std::env::temp_dir().join(format!("orion-settings-{tag}-{}.toml", std::process::id()));
    std::fs::write(&path, text).expect("write the settings file");
    path
}

/// A TOML string.
fn quoted(v: &str) -> String {
    format!("\"{}\"", v.replace('\\', "\\\\").replace('"', "\\\""))
}

#[test]
fn flags_environment_and_file_give_the_same_configuration() {
    let flags: Vec<String> = SETTINGS
        .iter()
        .flat_map(|(k, v)| [format!("--{k}"), v.to_string()])
        .collect();
    let from_flags = printed(&flags, &[]);

    // The environment: one variable per setting, a repeatable one comma-separated.
    let mut env: Vec<(String, String)> = Vec::new();
    for (k, v) in SETTINGS {
        let name = format!("ORION_{}", k.to_uppercase().replace('-', "_"));
        match env.iter_mut().find(|(n, _)| *n == name) {
            Some((_, value)) => *value = format!("{value},{v}"),
            None => env.push((name, v.to_string())),
        }
    }
    let from_env = printed(&[], &env);

    // The file: one key per setting, a repeatable one as a list.
    let mut toml = String::new();
    let mut done: Vec<&str> = Vec::new();
    for (k, _) in SETTINGS {
        if done.contains(k) {
            continue;
        }
        done.push(k);
        let values: Vec<String> = SETTINGS
            .iter()
            .filter(|(key, _)| key == k)
            .map(|(_, v)| quoted(v))
            .collect();
        if values.len() > 1 || ["allow-origin", "allow-push-endpoint", "trust-proxy"].contains(k) {
            toml.push_str(&format!("{k} = [{}]\n", values.join(", ")));
        } else {
            toml.push_str(&format!("{k} = {}\n", values[0]));
        }
    }
    let path = file("all", &toml);
    let from_file = printed(&["--config".into(), path.display().to_string()], &[]);
    // And through ORION_CONFIG.
    let from_config_env = printed(&[], &[("ORION_CONFIG".into(), path.display().to_string())]);
    let _ = std::fs::remove_file(&path);

    assert_eq!(from_env, from_flags);
    assert_eq!(from_file, from_flags);
    assert_eq!(from_config_env, from_flags);
    assert_ne!(
        from_flags,
        printed(&[], &[]),
        "the settings changed something"
    );
    for line in [
        "listen = \"127.0.0.1:9999\"",
        "sync = \"full\"",
        "trust-proxy = [\"127.0.0.1/32\", \"10.0.0.0/8\"]",
        "store = \"postgres://orion:***@127.0.0.1:5432/orion\"",
        "smtp = \"smtps://mail:***@127.0.0.1:465\"",
        "bus = \"nats://bus:***@127.0.0.1:4222\"",
    ] {
        assert!(
            from_flags.lines().any(|l| l == line),
            "{line} in\n{from_flags}"
        );
    }
    for secret in ["hunter2", "mailword", "busword"] {
        assert!(
            !from_flags.contains(secret),
            "{secret} shown in\n{from_flags}"
        );
    }

    // What it prints is itself a settings file giving the same (masked secrets aside).
    let round = file("round", &from_flags.replace(":***@", ":pw@"));
    let again = printed(&["--config".into(), round.display().to_string()], &[]);
    let _ = std::fs::remove_file(&round);
    assert_eq!(again, from_flags);
}

#[test]
fn a_flag_beats_the_environment_which_beats_the_file_which_beats_the_default() {
    let path = file("order", "listen = \"127.0.0.1:1001\"\nretain-days = 5\n");
    let config = ["--config".to_string(), path.display().to_string()];
    let env = [("ORION_LISTEN".to_string(), "127.0.0.1:1002".to_string())];
    let listen = |out: &str| {
        out.lines()
            .find_map(|l| l.strip_prefix("listen = "))
            .unwrap_or_default()
            .to_string()
    };
    let mut with_flag = config.to_vec();
    with_flag.extend(["--listen".to_string(), "127.0.0.1:1003".to_string()]);
    assert_eq!(listen(&printed(&with_flag, &env)), "\"127.0.0.1:1003\"");
    let env_over_file = printed(&config, &env);
    assert_eq!(listen(&env_over_file), "\"127.0.0.1:1002\"");
    assert!(
        env_over_file.contains("retain-days = 5\n"),
        "{env_over_file}"
    );
    assert_eq!(listen(&printed(&config, &[])), "\"127.0.0.1:1001\"");
    assert_eq!(listen(&printed(&[], &[])), "\"127.0.0.1:7878\"");
    let _ = std::fs::remove_file(&path);
}

#[test]
fn a_file_with_an_unknown_key_or_a_bad_value_is_refused_saying_which() {
    for (tag, text, says) in [
        (
            "unknown",
            "lisen = \"127.0.0.1:1\"\n",
            vec!["unknown key `lisen`", "listen, store"],
        ),
        (
            "bad",
            "sync = \"sometimes\"\n",
            vec!["`sync`", "invalid value 'sometimes'"],
        ),
        (
            "list",
            "listen = [\"a\", \"b\"]\n",
            vec!["`listen`", "one value"],
        ),
        ("toml", "listen = \n", vec!["not a valid TOML file"]),
    ] {
        let path = file(tag, text);
        let out = run(
            &[
                "--config".into(),
                path.display().to_string(),
                "--print-config".into(),
            ],
            &[],
        );
        let _ = std::fs::remove_file(&path);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{tag}: {err}");
        assert!(out.stdout.is_empty(), "{tag}: nothing printed");
        assert!(err.contains(&path.display().to_string()), "{tag}: {err}");
        for s in says {
            assert!(err.contains(s), "{tag}: {s:?} in {err}");
        }
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn json_logs_are_one_object_a_line() {
    let mut child = Command::new(BIN)
        .args(["--listen", "127.0.0.1:0", "--store", ":memory:"])
        .env_clear()
        .env("ORION_LOG_FORMAT", "json")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("run orion-server");
    let out = BufReader::new(child.stdout.take().expect("stdout"));
    let mut seen = None;
    for line in out.lines() {
        let line = line.expect("a line");
        if line.contains("\"listening\"") {
            seen = Some(line);
            break;
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    let line = seen.expect("the server logs that it listens");
    let v: serde_json::Value = serde_json::from_str(&line).expect("a JSON object");
    assert_eq!(v["level"], "INFO", "{v}");
    assert_eq!(v["fields"]["message"], "listening", "{v}");
}
