//! A reader for the one JSON shape a LoRR problem file has: a flat object whose values are
//! strings, numbers, booleans or null, each key kept with the line it is on so that a bad
//! value can be reported as `file:line`.

use crate::format::FormatError;

/// A value of a flat JSON object.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Value {
    /// A string, escapes decoded.
    Str(String),
    /// A number, as written.
    Num(f64),
    /// `true` or `false`.
    Bool(bool),
    /// `null`.
    Null,
}

/// One `"key": value` pair and its 1-based line.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Entry {
    pub key: String,
    pub value: Value,
    pub line: usize,
}

/// A cursor over the text that counts lines.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
    line: usize,
    file: &'a str,
}

impl Reader<'_> {
    fn error(&self, message: impl Into<String>) -> FormatError {
        FormatError::at(self.file, self.line, message)
    }

    fn skip_space(&mut self) {
        while let Some(&b) = self.bytes.get(self.at) {
            match b {
                b'\n' => self.line += 1,
                b' ' | b'\t' | b'\r' => {}
                _ => return,
            }
            self.at += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.skip_space();
        self.bytes.get(self.at).copied()
    }

    fn expect(&mut self, want: u8, what: &str) -> Result<(), FormatError> {
        match self.peek() {
            Some(b) if b == want => {
                self.at += 1;
                Ok(())
            }
            Some(b) => Err(self.error(format!("expected {what}, found '{}'", b as char))),
            None => Err(self.error(format!("expected {what}, the file ends"))),
        }
    }

    fn string(&mut self) -> Result<String, FormatError> {
        self.expect(b'"', "a string")?;
        let mut out = Vec::new();
        loop {
            let Some(&b) = self.bytes.get(self.at) else {
                return Err(self.error("a string is not closed"));
            };
            self.at += 1;
            match b {
                b'"' => break,
                b'\n' => return Err(self.error("a string runs past the end of its line")),
                b'\\' => {
                    let Some(&e) = self.bytes.get(self.at) else {
                        return Err(self.error("a string is not closed"));
                    };
                    self.at += 1;
                    out.push(match e {
                        b'"' | b'\\' | b'/' => e,
                        b'n' => b'\n',
                        b't' => b'\t',
                        _ => {
                            return Err(self.error(format!("unsupported escape '\\{}'", e as char)));
                        }
                    });
                }
                _ => out.push(b),
            }
        }
        String::from_utf8(out).map_err(|_| self.error("a string is not UTF-8"))
    }

    fn word(&mut self) -> &str {
        let start = self.at;
        while self
            .bytes
            .get(self.at)
            .is_some_and(|b| b.is_ascii_alphanumeric() || b"+-.".contains(b))
        {
            self.at += 1;
        }
        std::str::from_utf8(&self.bytes[start..self.at]).unwrap_or("")
    }

    fn value(&mut self) -> Result<Value, FormatError> {
        match self.peek() {
            Some(b'"') => self.string().map(Value::Str),
            Some(b'{' | b'[') => Err(self.error("a nested object or list is not expected here")),
            None => Err(self.error("expected a value, the file ends")),
            Some(_) => {
                let word = self.word().to_owned();
                match word.as_str() {
                    "true" => Ok(Value::Bool(true)),
                    "false" => Ok(Value::Bool(false)),
                    "null" => Ok(Value::Null),
                    w => w
                        .parse::<f64>()
                        .ok()
                        .filter(|x| x.is_finite())
                        .map(Value::Num)
                        .ok_or_else(|| self.error(format!("'{w}' is not a JSON value"))),
                }
            }
        }
    }
}

/// The entries of the flat object that is the whole of `text`, in file order. A key given
/// twice is an error.
pub(super) fn parse_flat_object(text: &str, file: &str) -> Result<Vec<Entry>, FormatError> {
    let mut r = Reader {
        bytes: text.as_bytes(),
        at: 0,
        line: 1,
        file,
    };
    r.expect(b'{', "'{' opening the problem object")?;
    let mut entries: Vec<Entry> = Vec::new();
    if r.peek() == Some(b'}') {
        r.at += 1;
    } else {
        loop {
            let key = r.string()?;
            let line = r.line;
            if entries.iter().any(|e| e.key == key) {
                return Err(r.error(format!("the key \"{key}\" is given twice")));
            }
            r.expect(b':', "':' after a key")?;
            let value = r.value()?;
            entries.push(Entry { key, value, line });
            match r.peek() {
                Some(b',') => r.at += 1,
                Some(b'}') => {
                    r.at += 1;
                    break;
                }
                Some(b) => {
                    return Err(r.error(format!("expected ',' or '}}', found '{}'", b as char)));
                }
                None => return Err(r.error("the object is not closed")),
            }
        }
    }
    if let Some(b) = r.peek() {
        return Err(r.error(format!("unexpected '{}' after the object", b as char)));
    }
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_keys_with_their_lines() {
        let text = "{\n  \"a\": \"x\\\"y\",\n  \"b\": 1.5,\n  \"c\": true\n}\n";
        let e = parse_flat_object(text, "p.json").unwrap();
        assert_eq!(e.len(), 3);
        assert_eq!((e[0].key.as_str(), e[0].line), ("a", 2));
        assert_eq!(e[0].value, Value::Str("x\"y".into()));
        assert_eq!((e[1].value.clone(), e[1].line), (Value::Num(1.5), 3));
        assert_eq!(e[2].value, Value::Bool(true));
    }

    #[test]
    fn errors_name_the_line() {
        let e = parse_flat_object("{\n\"a\": 1,\n\"b\" 2}", "p.json").unwrap_err();
        assert_eq!(e.line, Some(3), "{e}");
        let e = parse_flat_object("{\"a\": 1,\n\"a\": 2}", "p.json").unwrap_err();
        assert!(e.message.contains("twice"), "{e}");
        let e = parse_flat_object("{\"a\": [1]}", "p.json").unwrap_err();
        assert!(e.message.contains("nested"), "{e}");
        assert!(parse_flat_object("{\"a\": 1} x", "p.json").is_err());
        assert!(parse_flat_object("{\"a\": 1", "p.json").is_err());
    }
}
