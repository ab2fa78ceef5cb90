//! `docs/rules.md`, embedded: the one text of the rules, read on GitHub as it is and cut here
//! into its sections (a `##` or `###` heading and what follows it up to the next) for the
//! rules pages. A game's own section names its id first in backticks in its heading
//! (`### Hydra for Two (`hydra-2`, 2 players)`).

/// The rules as the project writes them.
pub const RULES: &str = include_str!("../../../docs/rules.md");

/// One section of the rules.
#[derive(Clone, Copy, Debug)]
pub struct Section<'a> {
    /// Its heading, without the `#`s.
    pub title: &'a str,
    /// The first word in backticks in its heading: a game's id for a game's section.
    pub game: Option<&'a str>,
    /// The Markdown under its heading.
    pub body: &'a str,
}

/// The rules cut into their parts.
#[derive(Debug)]
pub struct Source<'a> {
    /// What comes between the `#` title and the first section: what the text is.
    pub intro: &'a str,
    /// Every `##` and `###` section, in order.
    pub sections: Vec<Section<'a>>,
}

impl<'a> Source<'a> {
    /// Cuts `text` at its `##` and `###` headings (not inside fenced code).
    pub fn split(text: &'a str) -> Source<'a> {
        // (start of the heading line, end of it, its title)
        let mut heads: Vec<(usize, usize, &str)> = Vec::new();
        let mut fenced = false;
        let mut at = 0;
        for line in text.split_inclusive('\n') {
            let bare = line.trim_end();
            if bare.starts_with("```") {
                fenced = !fenced;
            } else if !fenced {
                let title = bare
                    .strip_prefix("### ")
                    .or_else(|| bare.strip_prefix("## "));
                if let Some(title) = title {
                    heads.push((at, at + line.len(), title.trim()));
                }
            }
            at += line.len();
        }
        let intro_start = text
            .lines()
            .next()
            .filter(|l| l.starts_with("# "))
            .map_or(0, |l| (l.len() + 1).min(text.len()));
        let intro_end = heads.first().map_or(text.len(), |h| h.0);
        let sections = (heads.iter().enumerate())
            .map(|(i, &(_, body_start, title))| {
                let end = heads.get(i + 1).map_or(text.len(), |h| h.0);
                Section {
                    title,
                    game: first_code(title),
                    body: &text[body_start..end],
                }
            })
            .collect();
        Source {
            intro: text.get(intro_start..intro_end).unwrap_or_default(),
            sections,
        }
    }

    /// The section with this heading.
    pub fn titled(&self, title: &str) -> Option<&Section<'a>> {
        self.sections.iter().find(|s| s.title == title)
    }

    /// The section of this game.
    pub fn of_game(&self, game: &str) -> Option<&Section<'a>> {
        self.sections.iter().find(|s| s.game == Some(game))
    }
}

/// The first text in backticks.
fn first_code(title: &str) -> Option<&str> {
    let (_, rest) = title.split_once('`')?;
    let (code, _) = rest.split_once('`')?;
    Some(code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_are_cut_at_their_headings_and_fences_are_skipped() {
        let text = "# T\n\nAbout.\n\n## One\nA\n```diagram\n## not a heading\n```\n### Two (`two`, 2)\nB\n";
        let source = Source::split(text);
        assert_eq!(source.intro, "\nAbout.\n\n");
        let titles: Vec<_> = source.sections.iter().map(|s| s.title).collect();
        assert_eq!(titles, ["One", "Two (`two`, 2)"]);
        assert!(source.sections[0].body.contains("## not a heading"));
        assert_eq!(source.of_game("two").map(|s| s.body), Some("B\n"));
    }
}
