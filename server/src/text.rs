//! Text that one player writes and others are shown: names and chat lines. Anything that
//! could act on a reader's terminal or disguise who is speaking is refused, not filtered, so
//! the sender learns why: control characters (ESC, BEL, NUL, CR, newlines), format
//! characters (right-to-left overrides, zero-width spaces and joiners), line and paragraph
//! separators, private-use and unassigned code points.
//!
//! A name a player takes from now on ([`new_name`]) is held to more: letters, digits and a few
//! separators, its letters of one script, no invisible or filler letters, few combining marks,
//! nothing shaped like a player id; and claimed names are unique by their confusable skeleton
//! (UTS #39, the `unicode-security` crate) as well as by case and width ([`name_skeleton`]),
//! so nobody can pass for a claimed name with a look-alike.

use crate::protocol::{Code, Refusal};
use unicode_properties::{GeneralCategory, GeneralCategoryGroup, UnicodeGeneralCategory};
use unicode_security::{GeneralSecurityProfile, MixedScript};

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

/// The separators a new name may hold besides letters and digits (a space only between
/// words: the name is trimmed).
pub const SEPARATORS: [char; 5] = [' ', '-', '_', '.', '\''];
/// Most combining marks on one letter (in decomposed form: Vietnamese `ệ` is `e` and two).
pub const MAX_MARKS: usize = 3;

fn refuse(message: String) -> Refusal {
    Refusal::new(Code::BadRequest, message)
}

/// A name a player takes now (a guest's `hello`, a `register`), trimmed: a display name (as
/// [`name`]) that is also safe to tell apart from others. Letters (of the Unicode identifier
/// profile: no fillers such as U+3164, no small capitals or other technical letters, no
/// default-ignorable characters), combining marks (at most [`MAX_MARKS`] on a letter, never
/// first), decimal digits and [`SEPARATORS`]; at least one letter or digit; all its letters of
/// one script (digits and separators go with any); and nothing that reads as a player id.
/// Names taken before these rules still log in and show as they are.
pub fn new_name(text: &str) -> Result<String, Refusal> {
    let name = name(text)?;
    let mut marks = 0;
    let mut base = false;
    for c in unicode_normalization::UnicodeNormalization::nfd(name.as_str()) {
        let group = c.general_category_group();
        if group == GeneralCategoryGroup::Mark {
            marks += 1;
            if !base {
                return Err(refuse(format!(
                    "a name may not start with a combining mark (U+{:04X})",
                    c as u32
                )));
            }
            if marks > MAX_MARKS {
                return Err(refuse(format!(
                    "a name may hold at most {MAX_MARKS} accents on one letter"
                )));
            }
        } else {
            marks = 0;
            base = !SEPARATORS.contains(&c);
        }
        let letter_or_digit = matches!(
            group,
            GeneralCategoryGroup::Letter | GeneralCategoryGroup::Mark
        ) || c.general_category() == GeneralCategory::DecimalNumber;
        if !(SEPARATORS.contains(&c) || letter_or_digit && c.identifier_allowed()) {
            return Err(refuse(format!(
                "a name may hold letters, digits, spaces and - _ . ' only (found U+{:04X})",
                c as u32
            )));
        }
    }
    if name.chars().all(|c| SEPARATORS.contains(&c)) {
        return Err(refuse("a name needs a letter or a digit".to_string()));
    }
    if !name.as_str().is_single_script() {
        return Err(refuse(
            "a name's letters must all be of one script (not Latin and Cyrillic together, say)"
                .to_string(),
        ));
    }
    if looks_like_id(&name) {
        return Err(refuse(format!(
            "{name} looks like a player id: choose another name"
        )));
    }
    Ok(name)
}

/// Whether `name` reads as a player id (`p` and 8 hex digits, as `session.rs` makes them),
/// in any case or with look-alike characters (`Pl234ABCD`).
pub fn looks_like_id(name: &str) -> bool {
    let same = |a: char, b: char| name_skeleton(&a.to_string()) == name_skeleton(&b.to_string());
    let chars: Vec<char> = name.chars().collect();
    chars.len() == 9
        && same(chars[0], 'p')
        && chars[1..]
            .iter()
            .all(|&c| "0123456789abcdef".chars().any(|h| same(c, h)))
}

/// The key claimed names are unique by against look-alikes: the UTS #39 confusable skeleton of
/// the caseless key ([`name_key`]), folded and skeletonised once more (the skeleton of `0` is
/// `O`, whose fold is `o`), so `alice`, `аlice` (Cyrillic а), `alıce`, `ALICE` and `a‌lice`
/// share one. Names that differ only by separators or accents stay apart.
pub fn name_skeleton(name: &str) -> String {
    let once: String = unicode_security::skeleton(&name_key(name)).collect();
    let twice: String = unicode_security::skeleton(&name_key(&once)).collect();
    twice
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

    /// Issue 25's look-alikes of `alice`, and names that were never names.
    #[test]
    fn look_alikes_invisible_and_id_shaped_names_are_refused_or_share_a_skeleton() {
        let alice = name_skeleton("alice");
        // Refused outright as new names.
        for bad in [
            "\u{430}lice",                            // Cyrillic а: mixed script
            "ali\u{34f}ce",  // combining grapheme joiner (default-ignorable)
            "alice\u{fe0f}", // variation selector
            "\u{1d00}\u{29f}\u{26a}\u{1d04}\u{1d07}", // small capitals ᴀʟɪᴄᴇ
            "ali\u{a0}ce",   // no-break space
            "\u{2800}",      // braille blank
            "\u{3164}",      // Hangul filler
            "a\u{3164}b",
            "\u{115f}x",    // Hangul choseong filler
            "\u{301}alice", // a mark with no letter
            "...",
            "p1a2b3c4d", // a player id
            "P1A2B3C4D",
            "pl234abcd", // l for 1
            "a🙂",
        ] {
            assert!(new_name(bad).is_err(), "{bad:?} was accepted");
        }
        // 31 stacked accents are over the length; 4 are over the bound on marks.
        assert!(new_name(&format!("a{}lice", "\u{301}".repeat(31))).is_err());
        let e = new_name(&format!("a{}lice", "\u{301}".repeat(4))).unwrap_err();
        assert!(e.message.contains("accents"), "{}", e.message);
        assert!(new_name(&format!("a{}lice", "\u{301}".repeat(3))).is_ok());
        // Allowed as names, but claimed alice's look-alikes all the same.
        for same in ["alıce", "ALICE", "ａｌｉｃｅ", "Alice", "a\u{200c}lice"] {
            assert_eq!(name_skeleton(same), alice, "{same:?}");
        }
        assert!(new_name("alıce").is_ok(), "Turkish dotless i is a letter");
        assert_eq!(name_skeleton("b0b"), name_skeleton("bob"));
        assert_eq!(name_skeleton("\u{430}lice"), alice);
        assert_ne!(name_skeleton("alicé"), alice);
        assert_ne!(name_skeleton("bob"), name_skeleton("bobby"));
    }

    #[test]
    fn ordinary_names_in_one_script_are_accepted() {
        for good in [
            "Ann",
            "Zoë Ørsted",
            "李小龍",
            "Иван",
            "Ngô Bảo Châu",
            "d'Artagnan",
            "r2-d2",
            "mary_jane.w",
            "たなか タロウ",
            "p1a2b3c4",   // one digit short of an id
            "p1a2b3c4dd", // one over
            "pizza1234",
        ] {
            assert_eq!(new_name(good).as_deref(), Ok(good), "{good:?}");
        }
    }

    #[test]
    fn length_is_counted_in_characters() {
        assert!(name(&"é".repeat(MAX_NAME)).is_ok());
        assert!(name(&"é".repeat(MAX_NAME + 1)).is_err());
        assert!(name("   ").is_err());
        assert!(chat(&"x".repeat(MAX_CHAT + 1)).is_err());
    }
}
