//! A section's Markdown as HTML (`pulldown-cmark`), with each ```` ```diagram ```` block
//! turned into a `<figure>` the page fills: the block is a JSON object, a `caption` (the
//! figure's words, and its accessible name) and where the position comes from (a `game` and
//! the actions to `play` from its start, or a `lesson` and `step` to start from: see
//! `lessons::Setup`). The server's engine computes the position; the page only draws it.

use crate::lessons::Setup;
use pulldown_cmark::{CodeBlockKind, CowStr, Event, HeadingLevel, Options, Parser, Tag, TagEnd};
use serde_json::Value;

/// A diagram as its block in `docs/rules.md` writes it.
#[derive(Clone, Debug)]
pub struct Figure {
    /// What it shows, in words.
    pub caption: String,
    /// Where its position comes from.
    pub setup: Setup,
}

/// Why a diagram block does not read.
#[derive(Debug, thiserror::Error)]
#[error("a diagram block in docs/rules.md does not read: {0}")]
pub struct BadDiagram(String);

/// HTML and figures rendered so far, for one page.
#[derive(Debug, Default)]
pub struct Rendered {
    /// The page's HTML.
    pub html: String,
    /// Its diagrams, numbered by their place here (`data-diagram="N"`).
    pub figures: Vec<Figure>,
}

impl Rendered {
    /// Adds a heading of `level` (2 to 6) with `text`, escaped.
    pub fn heading(&mut self, level: HeadingLevel, text: &str) {
        let events = [
            Event::Start(Tag::Heading {
                level,
                id: None,
                classes: Vec::new(),
                attrs: Vec::new(),
            }),
            Event::Text(CowStr::Borrowed(text)),
            Event::End(TagEnd::Heading(level)),
        ];
        pulldown_cmark::html::push_html(&mut self.html, events.into_iter());
    }

    /// Adds `markdown` rendered, its diagram blocks as figures.
    pub fn markdown(&mut self, markdown: &str) -> Result<(), BadDiagram> {
        let mut events: Vec<Event<'_>> = Vec::new();
        let mut diagram: Option<String> = None;
        for event in Parser::new_ext(markdown, Options::ENABLE_TABLES) {
            match event {
                Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(lang)))
                    if lang.as_ref() == "diagram" =>
                {
                    diagram = Some(String::new());
                }
                Event::Text(text) if diagram.is_some() => {
                    if let Some(d) = diagram.as_mut() {
                        d.push_str(&text);
                    }
                }
                Event::End(TagEnd::CodeBlock) if diagram.is_some() => {
                    let block = diagram.take().unwrap_or_default();
                    let figure = figure(&block)?;
                    let n = self.figures.len();
                    events.push(Event::Html(CowStr::from(format!(
                        "<figure class=\"diagram\" id=\"diagram-{n}\"><div class=\"diagram-board\" \
                         role=\"img\" aria-labelledby=\"diagram-{n}-caption\" data-diagram=\"{n}\">\
                         </div><figcaption id=\"diagram-{n}-caption\">"
                    ))));
                    events.push(Event::Text(CowStr::from(figure.caption.clone())));
                    events.push(Event::Html(CowStr::Borrowed("</figcaption></figure>\n")));
                    self.figures.push(figure);
                }
                other => events.push(other),
            }
        }
        pulldown_cmark::html::push_html(&mut self.html, events.into_iter());
        Ok(())
    }
}

/// A diagram block read.
fn figure(block: &str) -> Result<Figure, BadDiagram> {
    let mut object = match serde_json::from_str::<Value>(block) {
        Ok(Value::Object(o)) => o,
        Ok(_) => return Err(BadDiagram("it is a JSON object".into())),
        Err(e) => return Err(BadDiagram(e.to_string())),
    };
    let caption = match object.remove("caption") {
        Some(Value::String(c)) if !c.trim().is_empty() => c,
        _ => return Err(BadDiagram("it needs a `caption`, its words".into())),
    };
    let setup = serde_json::from_value(Value::Object(object))
        .map_err(|e| BadDiagram(format!("{caption}: {e}")))?;
    Ok(Figure { caption, setup })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_renders_and_a_diagram_block_becomes_a_labelled_figure() {
        let mut r = Rendered::default();
        let md = "Some **bold** <text>.\n\n```diagram\n{\"game\": \"hydra-2\", \"play\": [\"C1R\"], \"caption\": \"After C1R & more\"}\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n";
        r.markdown(md).unwrap();
        assert!(r.html.contains("<strong>bold</strong>"), "{}", r.html);
        assert!(r.html.contains("<table>"), "{}", r.html);
        assert!(r.html.contains("aria-labelledby=\"diagram-0-caption\""));
        assert!(
            r.html.contains("After C1R &amp; more</figcaption>"),
            "{}",
            r.html
        );
        assert!(!r.html.contains("<pre>"), "{}", r.html);
        assert_eq!(r.figures.len(), 1);
        assert_eq!(r.figures[0].setup.play, ["C1R"]);
    }

    #[test]
    fn a_diagram_block_without_a_caption_or_with_an_unknown_field_is_refused() {
        let mut r = Rendered::default();
        let e = r
            .markdown("```diagram\n{\"game\": \"hydra-2\"}\n```\n")
            .unwrap_err();
        assert!(e.to_string().contains("caption"), "{e}");
        let e = (r.markdown("```diagram\n{\"caption\": \"x\", \"gmae\": \"hydra-2\"}\n```\n"))
            .unwrap_err();
        assert!(e.to_string().contains("gmae"), "{e}");
    }
}
