//! How far this user got in each lesson (steps done, by lesson id), kept in a small JSON file
//! as the web page keeps it in `localStorage`: `$ORION_CONFIG_DIR/lessons.json` when that is
//! set (as for the tokens), else `lessons.json` in the user's state directory
//! (`$XDG_STATE_HOME/orion`, `~/.local/state/orion`), else in the config directory. A file
//! that cannot be read counts as no progress; one that cannot be written is said once.

use std::collections::BTreeMap;
use std::path::PathBuf;

/// Most lessons remembered (a file edited by hand does not grow without bound).
const MAX_LESSONS: usize = 256;

/// Steps done by lesson id, and where they are kept.
#[derive(Clone, Debug, Default)]
pub struct Progress {
    /// Steps done, by lesson id.
    done: BTreeMap<String, usize>,
    /// The file; `None`: kept in memory only.
    path: Option<PathBuf>,
}

impl Progress {
    /// The user's progress, read from its file.
    pub fn user() -> Progress {
        let dir = std::env::var_os("ORION_CONFIG_DIR")
            .map(PathBuf::from)
            .or_else(|| dirs::state_dir().map(|d| d.join("orion")))
            .or_else(|| dirs::config_dir().map(|d| d.join("orion")));
        match dir {
            Some(dir) => Progress::at(dir.join("lessons.json")),
            None => Progress::default(),
        }
    }

    /// The progress kept in `path` (none yet when it is missing or unreadable).
    pub fn at(path: PathBuf) -> Progress {
        let done = std::fs::read_to_string(&path)
            .ok()
            .and_then(|text| serde_json::from_str::<BTreeMap<String, usize>>(&text).ok())
            .unwrap_or_default()
            .into_iter()
            .take(MAX_LESSONS)
            .collect();
        Progress {
            done,
            path: Some(path),
        }
    }

    /// Steps done in lesson `id`.
    pub fn done(&self, id: &str) -> usize {
        self.done.get(id).copied().unwrap_or(0)
    }

    /// Step `steps` of lesson `id` is done (progress never goes back: starting a lesson
    /// again keeps the mark). The error says why the file could not be written.
    pub fn mark(&mut self, id: &str, steps: usize) -> Result<(), String> {
        if steps <= self.done(id) || (self.done.len() >= MAX_LESSONS && !self.done.contains_key(id))
        {
            return Ok(());
        }
        self.done.insert(id.to_string(), steps);
        let Some(path) = &self.path else {
            return Ok(());
        };
        let text = serde_json::to_string_pretty(&self.done).map_err(|e| e.to_string())?;
        let write = || -> std::io::Result<()> {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir)?;
            }
            // Written aside and renamed: a crash leaves the old file or the new, never half.
            let aside = path.with_extension("json.new");
            std::fs::write(&aside, text)?;
            std::fs::rename(&aside, path)
        };
        write().map_err(|e| format!("progress not saved in {}: {e}", path.display()))
    }

    /// How a lesson of `steps` steps stands, as the list shows it: `done`, `2/5`, or nothing.
    pub fn mark_text(&self, id: &str, steps: usize) -> String {
        match self.done(id).min(steps) {
            0 => String::new(),
            n if n >= steps => "done".to_string(),
            n => format!("{n}/{steps}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_is_kept_across_runs_and_never_goes_back() {
        let dir = std::env::temp_dir().join(format!("orion-progress-{}", std::process::id()));
        let path = dir.join("state").join("lessons.json");
        let mut p = Progress::at(path.clone());
        assert_eq!(p.mark_text("hydra-2", 5), "");
        p.mark("hydra-2", 2).unwrap();
        p.mark("basics", 5).unwrap();
        p.mark("hydra-2", 1).unwrap();
        let again = Progress::at(path.clone());
        assert_eq!(again.mark_text("hydra-2", 5), "2/5");
        assert_eq!(again.mark_text("basics", 5), "done");
        // A file that is not ours counts as none, and is replaced by the next mark.
        std::fs::write(&path, "not json").unwrap();
        let mut broken = Progress::at(path.clone());
        assert_eq!(broken.done("hydra-2"), 0);
        broken.mark("orbs", 1).unwrap();
        assert_eq!(Progress::at(path).done("orbs"), 1);
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn a_file_that_cannot_be_written_is_said() {
        let dir = std::env::temp_dir().join(format!("orion-progress-ro-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        // A directory where the file should be: it cannot be replaced.
        let path = dir.join("lessons.json");
        std::fs::create_dir_all(path.join("x")).unwrap();
        let e = Progress::at(path).mark("basics", 1).unwrap_err();
        assert!(e.contains("progress not saved"), "{e}");
        let _ = std::fs::remove_dir_all(dir);
    }
}
