//! Finding the line of a value in RON text, so that errors found after deserializing (a row of
//! the wrong length, an agent on a wall) can still name the line they come from.
//!
//! serde hands the parser's values over without their positions, so this module lexes the text
//! once more, just enough to see its structure: brackets, commas, colons and identifiers, with
//! strings, characters and comments skipped. It is meant for text that `ron` already accepted;
//! on anything else it still never panics, it only finds less. Every lookup is best effort and
//! returns `None` when the place cannot be found.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind<'a> {
    /// `(`, `[` or `{`.
    Open,
    /// `)`, `]` or `}`.
    Close,
    Comma,
    Colon,
    Ident(&'a str),
    /// A literal or any other character.
    Other,
}

#[derive(Clone, Copy, Debug)]
struct Tok<'a> {
    kind: Kind<'a>,
    line: usize,
}

/// The structure of a RON text: its tokens and, for each opening bracket, where it closes.
pub(crate) struct Locator<'a> {
    toks: Vec<Tok<'a>>,
    /// For an `Open` token, the index of its `Close` (or `toks.len()` when unclosed).
    close: Vec<usize>,
}

/// A token index in a [`Locator`].
pub(crate) type At = usize;

impl<'a> Locator<'a> {
    /// Lexes `text`.
    pub(crate) fn new(text: &'a str) -> Self {
        let toks = lex(text);
        let mut close = vec![toks.len(); toks.len()];
        let mut stack = Vec::new();
        for (i, t) in toks.iter().enumerate() {
            match t.kind {
                Kind::Open => stack.push(i),
                Kind::Close => {
                    if let Some(o) = stack.pop() {
                        close[o] = i;
                    }
                }
                _ => {}
            }
        }
        Self { toks, close }
    }

    /// The 1-based line of token `at`.
    pub(crate) fn line(&self, at: At) -> Option<usize> {
        self.toks.get(at).map(|t| t.line)
    }

    /// The opening bracket of the top-level value: the first bracket outside any other, after
    /// an optional struct name (attributes like `#![enable(..)]` are inside `[..]`, so skipped).
    pub(crate) fn root(&self) -> Option<At> {
        let mut i = 0;
        while let Some(t) = self.toks.get(i) {
            match t.kind {
                Kind::Open => {
                    // `#![...]` is an attribute: its `[` follows a `!`; skip the whole group.
                    if i > 0 && self.toks[i - 1].kind == Kind::Other {
                        i = self.close[i].checked_add(1)?;
                        continue;
                    }
                    return Some(i);
                }
                _ => i += 1,
            }
        }
        None
    }

    /// The bracket that opens the value starting at `at`: `at` itself, or the bracket after a
    /// name (`Scenario(..)`, `Some(..)`).
    pub(crate) fn group(&self, at: At) -> Option<At> {
        match self.toks.get(at)?.kind {
            Kind::Open => Some(at),
            Kind::Ident(_) if self.toks.get(at + 1)?.kind == Kind::Open => Some(at + 1),
            _ => None,
        }
    }

    /// The first token of each element directly inside the group opened at `group`.
    pub(crate) fn elements(&self, group: At) -> Vec<At> {
        let mut out = Vec::new();
        if self.toks.get(group).map(|t| t.kind) != Some(Kind::Open) {
            return out;
        }
        let end = self.close[group];
        let mut expecting = true;
        let mut i = group + 1;
        while i < end {
            match self.toks[i].kind {
                Kind::Comma => {
                    expecting = true;
                    i += 1;
                    continue;
                }
                Kind::Close => break,
                _ => {}
            }
            if expecting {
                out.push(i);
                expecting = false;
            }
            i = match self.toks[i].kind {
                Kind::Open => self.close[i].saturating_add(1),
                _ => i + 1,
            };
        }
        out
    }

    /// The first token of element `index` of the group that the value at `at` opens.
    pub(crate) fn element(&self, at: At, index: usize) -> Option<At> {
        self.elements(self.group(at)?).get(index).copied()
    }

    /// The first token of the value of field `name` in the struct whose value starts at `at`.
    pub(crate) fn field(&self, at: At, name: &str) -> Option<At> {
        let group = self.group(at)?;
        self.elements(group).into_iter().find_map(|e| {
            let is_name = self.toks.get(e)?.kind == Kind::Ident(name)
                && self.toks.get(e + 1)?.kind == Kind::Colon;
            is_name.then_some(e + 2).filter(|&v| v < self.toks.len())
        })
    }
}

/// Splits `text` into tokens, each with its line.
fn lex(text: &str) -> Vec<Tok<'_>> {
    let b = text.as_bytes();
    let mut toks = Vec::new();
    let mut line = 1;
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        let start_line = line;
        let kind = match c {
            b'\n' => {
                line += 1;
                i += 1;
                continue;
            }
            b' ' | b'\t' | b'\r' => {
                i += 1;
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while b.get(i).is_some_and(|&c| c != b'\n') {
                    i += 1;
                }
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i = skip_block_comment(b, i + 2, &mut line);
                continue;
            }
            b'"' => {
                i = skip_quoted(b, i + 1, b'"', &mut line);
                Kind::Other
            }
            b'\'' => {
                i = skip_quoted(b, i + 1, b'\'', &mut line);
                Kind::Other
            }
            b'(' | b'[' | b'{' => {
                i += 1;
                Kind::Open
            }
            b')' | b']' | b'}' => {
                i += 1;
                Kind::Close
            }
            b',' => {
                i += 1;
                Kind::Comma
            }
            b':' => {
                i += 1;
                Kind::Colon
            }
            c if c.is_ascii_alphabetic() || c == b'_' => {
                let (next, kind) = word(text, i, &mut line);
                i = next;
                kind
            }
            c if c.is_ascii_digit() || matches!(c, b'+' | b'-' | b'.') => {
                while b.get(i).is_some_and(|&c| {
                    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'+' | b'-')
                }) {
                    i += 1;
                }
                Kind::Other
            }
            _ => {
                i += 1;
                Kind::Other
            }
        };
        toks.push(Tok {
            kind,
            line: start_line,
        });
    }
    toks
}

/// The token that starts with the letter or `_` at `i`: an identifier (maybe raw, `r#name`),
/// or a byte or raw string, which start like one. Returns where it ends and its kind.
fn word<'a>(text: &'a str, mut i: usize, line: &mut usize) -> (usize, Kind<'a>) {
    let b = text.as_bytes();
    let c = b[i];
    let after_b = if c == b'b' { i + 1 } else { i };
    match (b.get(after_b), b.get(after_b + 1)) {
        (Some(b'"'), _) if c == b'b' => (skip_quoted(b, after_b + 1, b'"', line), Kind::Other),
        (Some(b'\''), _) if c == b'b' => (skip_quoted(b, after_b + 1, b'\'', line), Kind::Other),
        (Some(b'r'), Some(b'"' | b'#')) if raw_string_at(b, after_b + 1) => {
            (skip_raw_string(b, after_b + 1, line), Kind::Other)
        }
        _ => {
            let mut start = i;
            if c == b'r' && b.get(i + 1) == Some(&b'#') {
                start = i + 2;
            }
            let mut end = start;
            while b
                .get(end)
                .is_some_and(|&c| c.is_ascii_alphanumeric() || c == b'_')
            {
                end += 1;
            }
            i = end.max(i + 1);
            (i, text.get(start..end).map_or(Kind::Other, Kind::Ident))
        }
    }
}

/// Past a (nested) block comment whose `/*` ended just before `i`.
fn skip_block_comment(b: &[u8], mut i: usize, line: &mut usize) -> usize {
    let mut depth = 1usize;
    while depth > 0 {
        match (b.get(i), b.get(i + 1)) {
            (None, _) => return b.len(),
            (Some(b'/'), Some(b'*')) => {
                depth += 1;
                i += 2;
            }
            (Some(b'*'), Some(b'/')) => {
                depth -= 1;
                i += 2;
            }
            (Some(&c), _) => {
                if c == b'\n' {
                    *line += 1;
                }
                i += 1;
            }
        }
    }
    i
}

/// Past a string or character literal whose opening `quote` ended just before `i`.
fn skip_quoted(b: &[u8], mut i: usize, quote: u8, line: &mut usize) -> usize {
    while let Some(&c) = b.get(i) {
        match c {
            b'\\' => {
                if b.get(i + 1) == Some(&b'\n') {
                    *line += 1;
                }
                i += 2;
            }
            c if c == quote => return i + 1,
            c => {
                if c == b'\n' {
                    *line += 1;
                }
                i += 1;
            }
        }
    }
    b.len()
}

/// Whether `r` at `i - 1` starts a raw string: `r"` or `r#...#"`.
fn raw_string_at(b: &[u8], mut i: usize) -> bool {
    while b.get(i) == Some(&b'#') {
        i += 1;
    }
    b.get(i) == Some(&b'"')
}

/// Past a raw string whose `r` ended just before `i`.
fn skip_raw_string(b: &[u8], mut i: usize, line: &mut usize) -> usize {
    let mut hashes = 0;
    while b.get(i) == Some(&b'#') {
        hashes += 1;
        i += 1;
    }
    i += 1; // the opening quote
    while let Some(&c) = b.get(i) {
        if c == b'"' && (1..=hashes).all(|k| b.get(i + k) == Some(&b'#')) {
            return i + 1 + hashes;
        }
        if c == b'\n' {
            *line += 1;
        }
        i += 1;
    }
    b.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = r##"#![enable(implicit_some)]
// a comment with "quotes" and (brackets
Scenario(
    rows: [
        "a,b(", /* nested /* comment */ ] */
        r#"raw " string"#,
        'c', "esc\"aped",
    ],
    agents: [(start: (0, 0),
              goal: (1, 1)), AgentSpec(
        start: (2, 2), goal: (3, 3))],
)
"##;

    #[test]
    fn finds_fields_and_elements_by_line() {
        let l = Locator::new(TEXT);
        let root = l.root().unwrap();
        assert_eq!(l.line(root), Some(3));
        let rows = l.field(root, "rows").unwrap();
        assert_eq!(l.line(rows), Some(4));
        let lines: Vec<_> = l
            .elements(l.group(rows).unwrap())
            .into_iter()
            .map(|e| l.line(e).unwrap())
            .collect();
        assert_eq!(lines, vec![5, 6, 7, 7]);
        let agents = l.field(root, "agents").unwrap();
        let a0 = l.element(agents, 0).unwrap();
        assert_eq!(l.line(l.field(a0, "goal").unwrap()), Some(10));
        let a1 = l.element(agents, 1).unwrap();
        assert_eq!(l.line(a1), Some(10));
        assert_eq!(l.line(l.field(a1, "start").unwrap()), Some(11));
        assert_eq!(l.element(agents, 2), None);
        assert_eq!(l.field(root, "edits"), None);
    }

    #[test]
    fn garbage_finds_nothing_and_does_not_panic() {
        for text in [
            "", "(", ")", "r#", "b'", "\"", "/*", "r#\"", "([{", "(a:", "#![",
        ] {
            let l = Locator::new(text);
            if let Some(r) = l.root() {
                let _ = l.field(r, "a");
                let _ = l.element(r, 0);
            }
        }
    }
}
