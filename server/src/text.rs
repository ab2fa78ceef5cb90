//! Text that one player writes and others are shown: names and chat lines. Anything that
//! could act on a reader's terminal or disguise who is speaking is refused, not filtered, so
//! the sender learns why: control characters (ESC, BEL, NUL, CR, newlines), format
//! characters (right-to-left overrides, zero-width spaces and joiners), line and paragraph
//! separators, private-use and unassigned code points.

use crate::protocol::{Code, Refusal};
use unicode_properties::{GeneralCategory, GeneralCategoryGroup, UnicodeGeneralCategory};

/// Longest player name, in characters.
pub const MAX_NAME: usize = 32;
/// Longest chat line, in characters.
pub const MAX_CHAT: usize = 500;

/// A character a reader can see for what it is.
fn shown_as_is(c: char) -> bool {
    !matches!(c.general_category_group(), GeneralCategoryGroup::Other)
        && !matches!(
            c.general_category(),
            GeneralCategory::LineSeparator | GeneralCategory::ParagraphSeparator
        )
}

/// Checks `text` (trimmed) for length and characters; `what` names it in the refusal.
fn check(what: &str, text: &str, max: usize) -> Result<String, Refusal> {
    let text = text.trim();
    let count = text.chars().count();
    if count == 0 || count > max {
        return Err(Refusal::new(
            Code::BadRequest,
            format!("{what} must be 1 to {max} characters"),
        ));
    }
    if let Some(c) = text.chars().find(|&c| !shown_as_is(c)) {
        return Err(Refusal::new(
            Code::BadRequest,
            format!(
                "{what} may not hold control or invisible characters (found U+{:04X})",
                c as u32
            ),
        ));
    }
    Ok(text.to_string())
}

/// A player's display name, trimmed.
pub fn name(text: &str) -> Result<String, Refusal> {
    check("name", text, MAX_NAME)
}

/// The key a name is unique by among claimed accounts: compatibility-normalised and
/// case-folded (Unicode's compatibility caseless match: NFKD, fold, NFKD, fold, NFKC), with
/// every run of white space one space, so "ALICE", "Alice", "ａｌｉｃｅ" (full width) and
/// "alice" are one name and nobody can appear as a look-alike of a claimed one.
pub fn name_key(name: &str) -> String {
    use caseless::Caseless;
    use unicode_normalization::UnicodeNormalization;
    let folded: String = name
        .nfkd()
        .default_case_fold()
        .nfkd()
        .default_case_fold()
        .nfkc()
        .collect();
    folded.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A chat line, trimmed.
pub fn chat(text: &str) -> Result<String, Refusal> {
    check("chat text", text, MAX_CHAT)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_and_accented_text_in_any_script_is_accepted() {
        assert_eq!(name("  Ann  ").unwrap(), "Ann");
        assert!(name("Zoë Ørsted").is_ok());
        assert!(name("李小龍").is_ok());
        assert!(chat("gg, well played! 🙂").is_ok());
    }

    #[test]
    fn terminal_controls_and_disguises_are_refused() {
        for bad in [
            "a\u{1b}[2Jb",  // ESC: clears a terminal
            "bell\u{7}",    // BEL
            "nul\u{0}x",    // NUL
            "over\rwrite",  // CR
            "two\nlines",   // newline
            "evil\u{202e}", // right-to-left override
            "a\u{200b}nn",  // zero-width space
            "a\u{200d}b",   // zero-width joiner
            "x\u{2028}y",   // line separator
            "\u{e000}",     // private use
        ] {
            let e = chat(bad).unwrap_err();
            assert_eq!(e.code, Code::BadRequest, "{bad:?}");
            assert!(name(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn names_that_differ_only_by_case_width_or_spacing_share_a_key() {
        let alice = name_key("alice");
        for same in ["ALICE", "Alice", "aLiCe", "ａｌｉｃｅ", "ＡＬＩＣＥ"] {
            assert_eq!(name_key(same), alice, "{same}");
        }
        assert_eq!(name_key("Straße"), name_key("STRASSE"));
        assert_eq!(name_key("Ann  Lee"), name_key("ann lee"));
        assert_eq!(name_key("ǅemal"), name_key("DŽEMAL"));
        assert_ne!(name_key("alice"), name_key("alicé"));
        assert_ne!(name_key("bob"), name_key("bobby"));
    }

    #[test]
    fn length_is_counted_in_characters() {
        assert!(name(&"é".repeat(MAX_NAME)).is_ok());
        assert!(name(&"é".repeat(MAX_NAME + 1)).is_err());
        assert!(name("   ").is_err());
        assert!(chat(&"x".repeat(MAX_CHAT + 1)).is_err());
    }
}
