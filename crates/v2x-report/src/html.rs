//! Self-contained HTML reports: one stylesheet, escaped text, tables, inline SVG.

use crate::provenance::Provenance;
use std::fmt::Write as _;

/// Escapes text for HTML element content and attribute values.
pub fn escape(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            _ => o.push(c),
        }
    }
    o
}

/// An SVG document without its XML prolog, ready to inline in HTML.
pub fn inline_svg(svg: &str) -> &str {
    match svg.find("<svg") {
        Some(i) => &svg[i..],
        None => svg,
    }
}

/// The printed width of a figure of [`crate::plot`] (its root `width="..mm"`).
fn printed_width_mm(svg: &str) -> Option<f64> {
    let root = &svg[svg.find("<svg")?..];
    let root = &root[..root.find('>')?];
    root.split("width=\"").nth(1)?.split("mm\"").next()?.parse().ok()
}

/// One table cell: text (escaped when written) and an optional CSS class.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cell {
    pub text: String,
    pub class: Option<&'static str>,
}

impl Cell {
    pub fn with_class(text: impl Into<String>, class: &'static str) -> Cell {
        Cell {
            text: text.into(),
            class: Some(class),
        }
    }
}

impl From<String> for Cell {
    fn from(text: String) -> Cell {
        Cell { text, class: None }
    }
}

impl From<&str> for Cell {
    fn from(text: &str) -> Cell {
        Cell {
            text: text.into(),
            class: None,
        }
    }
}

const STYLE: &str = "body{font-family:sans-serif;margin:2em auto;max-width:1200px;padding:0 1em}\
table{border-collapse:collapse;margin:1em 0;font-size:13px}\
td,th{border:1px solid #ccc;padding:3px 6px;text-align:left}th{background:#eee}\
td.num{text-align:right}.missed{color:#b00;font-weight:bold}.met{color:#070}.open{color:#a60}\
pre{background:#f6f6f6;padding:1em;overflow-x:auto}\
figure{margin:1em 0}figure svg{width:100%;height:auto;display:block}figcaption{font-size:13px;color:#444}";

/// A report page being written.
pub struct Page {
    html: String,
}

impl Page {
    /// Starts a page with its `<title>` and the shared stylesheet.
    pub fn new(title: &str) -> Page {
        let mut html = String::new();
        let _ = write!(
            html,
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{}</title>\n<style>{STYLE}</style></head><body>\n",
            escape(title)
        );
        Page { html }
    }

    pub fn h1(&mut self, text: &str) -> &mut Page {
        let _ = writeln!(self.html, "<h1>{}</h1>", escape(text));
        self
    }

    pub fn h2(&mut self, text: &str) -> &mut Page {
        let _ = writeln!(self.html, "<h2>{}</h2>", escape(text));
        self
    }

    pub fn h3(&mut self, text: &str) -> &mut Page {
        let _ = writeln!(self.html, "<h3>{}</h3>", escape(text));
        self
    }

    /// A paragraph of text (escaped).
    pub fn p(&mut self, text: &str) -> &mut Page {
        let _ = writeln!(self.html, "<p>{}</p>", escape(text));
        self
    }

    /// A bulleted list (escaped).
    pub fn list<S: AsRef<str>>(&mut self, items: impl IntoIterator<Item = S>) -> &mut Page {
        self.html.push_str("<ul>");
        for i in items {
            let _ = write!(self.html, "<li>{}</li>", escape(i.as_ref()));
        }
        self.html.push_str("</ul>\n");
        self
    }

    /// Preformatted text (escaped), e.g. a configuration.
    pub fn pre(&mut self, text: &str) -> &mut Page {
        let _ = writeln!(self.html, "<pre>{}</pre>", escape(text));
        self
    }

    /// An inline SVG figure, shown at twice its printed size (at most the page width).
    pub fn svg(&mut self, svg: &str) -> &mut Page {
        let style =
            printed_width_mm(svg).map_or_else(String::new, |mm| format!(" style=\"max-width:{:.0}mm\"", 2.0 * mm));
        let _ = writeln!(self.html, "<figure{style}>{}</figure>", inline_svg(svg));
        self
    }

    /// A figure with its caption (escaped) and the files it was written to.
    pub fn figure(&mut self, svg: &str, caption: &str) -> &mut Page {
        let style =
            printed_width_mm(svg).map_or_else(String::new, |mm| format!(" style=\"max-width:{:.0}mm\"", 2.0 * mm));
        let _ = writeln!(
            self.html,
            "<figure{style}>{}<figcaption>{}</figcaption></figure>",
            inline_svg(svg),
            escape(caption)
        );
        self
    }

    /// A table; every cell is escaped.
    pub fn table<R, C>(&mut self, head: &[&str], rows: impl IntoIterator<Item = R>) -> &mut Page
    where
        R: IntoIterator<Item = C>,
        C: Into<Cell>,
    {
        self.html.push_str("<table><thead><tr>");
        for h in head {
            let _ = write!(self.html, "<th>{}</th>", escape(h));
        }
        self.html.push_str("</tr></thead><tbody>");
        for r in rows {
            self.html.push_str("<tr>");
            for c in r {
                let c: Cell = c.into();
                match c.class {
                    Some(class) => {
                        let _ = write!(self.html, "<td class=\"{class}\">{}</td>", escape(&c.text));
                    }
                    None => {
                        let _ = write!(self.html, "<td>{}</td>", escape(&c.text));
                    }
                }
            }
            self.html.push_str("</tr>");
        }
        self.html.push_str("</tbody></table>\n");
        self
    }

    /// The finished document, ending with where it comes from ([`Provenance`]).
    pub fn finish(mut self) -> String {
        let p = Provenance::now();
        let _ = writeln!(
            self.html,
            "<footer class=\"provenance\"><h2>Provenance</h2><p>{}</p></footer>",
            escape(&p.line())
        );
        self.html.push_str("</body></html>\n");
        self.html
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn page_is_complete_escaped_and_self_contained() {
        let mut p = Page::new("a <b> & c");
        p.h1("x < y").p("\"quoted\" & 'single'");
        p.table(&["k", "v"], vec![vec![Cell::from("<1>"), Cell::with_class("2", "num")]]);
        p.svg("<?xml version=\"1.0\"?>\n<svg><rect/></svg>");
        let html = p.finish();
        assert!(html.starts_with("<!DOCTYPE html>") && html.trim_end().ends_with("</html>"));
        assert!(html.contains("<title>a &lt;b&gt; &amp; c</title>"));
        assert!(html.contains("&quot;quoted&quot; &amp; &#39;single&#39;"));
        assert!(html.contains("<td>&lt;1&gt;</td><td class=\"num\">2</td>"));
        assert!(html.contains("<figure><svg><rect/></svg></figure>") && !html.contains("<?xml"));
        assert!(!html.contains("http"));
        assert!(html.contains("<h2>Provenance</h2>") && html.contains("load average"));
    }
}
