//! File formats: the RON scenario format of the game's maps, saves and recordings, and the
//! Moving AI `.map` / `.scen` benchmark formats.
//!
//! Every parser here is total: whatever the input (truncated, corrupted, hostile), it returns
//! either a whole, validated value or a [`FormatError`] naming the file, the line where it is
//! known and what is wrong. Nothing panics, and sizes claimed by a file are checked with
//! [`Grid::check_size`](crate::grid::Grid::check_size) before anything is allocated for them.
//!
//! - [`scenario`]: [`Scenario`], the RON format, with [`Scenario::parse`], [`Scenario::load`],
//!   [`Scenario::to_ron`] and the crash-safe [`Scenario::save`].
//! - [`lorr`]: League of Robot Runners problems (2023 and 2024) and their result JSON.
//! - [`movingai`]: [`movingai::parse_map`], [`movingai::parse_scen`], the checks between them,
//!   and [`movingai::to_scenario`] for importing a benchmark map into the game.

use std::fmt;
use std::path::Path;

mod atomic;
pub mod budgets;
mod dynamic_spec;
mod from_sim;
pub mod gppc;
mod locate;
pub mod lorr;
pub mod movingai;
mod rows;
pub mod scenario;
pub mod sensing;

pub use rows::grid_from_rows;
pub use scenario::{AgentSpec, CellSet, DynamicSpec, EditSpec, Scenario};
pub use sensing::SensingSpec;

/// Why a file could not be read, parsed or written.
///
/// Displayed as `file:line: message`, or `file: message` when no line applies (for example an
/// I/O error). Lines are 1-based, as in editors.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatError {
    /// The file, as given by the caller (a path, or a name for text that has no file).
    pub file: String,
    /// The 1-based line the problem is on, when it is known.
    pub line: Option<usize>,
    /// What is wrong, in words.
    pub message: String,
}

impl FormatError {
    /// An error on a known line of `file`.
    pub fn at(file: &str, line: usize, message: impl Into<String>) -> Self {
        Self {
            file: file.to_owned(),
            line: Some(line),
            message: message.into(),
        }
    }

    /// An error about `file` as a whole, or at a place that could not be located.
    pub fn whole(file: &str, message: impl Into<String>) -> Self {
        Self {
            file: file.to_owned(),
            line: None,
            message: message.into(),
        }
    }
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{}: {}", self.file, line, self.message),
            None => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

impl std::error::Error for FormatError {}

/// The name used for `path` in errors.
pub(crate) fn display_name(path: &Path) -> String {
    path.display().to_string()
}

/// Reads `path` as UTF-8 text. A read failure, or bytes that are not UTF-8 (reported with the
/// line and column of the first bad byte), becomes a [`FormatError`] naming the file.
pub(crate) fn read_text(path: &Path) -> Result<String, FormatError> {
    let name = display_name(path);
    let bytes = std::fs::read(path)
        .map_err(|e| FormatError::whole(&name, format!("cannot read the file: {e}")))?;
    decode_utf8(bytes, &name)
}

/// `text` without a leading byte-order mark, which some editors write.
pub(crate) fn strip_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// `bytes` as a `String`, or an error locating the first byte that is not UTF-8.
pub(crate) fn decode_utf8(bytes: Vec<u8>, file: &str) -> Result<String, FormatError> {
    String::from_utf8(bytes).map_err(|e| {
        let bytes = e.as_bytes();
        let bad = e.utf8_error().valid_up_to();
        let before = &bytes[..bad];
        let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
        let line_start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        let column = 1 + String::from_utf8_lossy(&before[line_start..])
            .chars()
            .count();
        FormatError::at(
            file,
            line,
            format!(
                "column {column}: byte 0x{:02x} is not UTF-8 text",
                bytes[bad]
            ),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_names_file_and_line() {
        let e = FormatError::at("maps/x.ron", 3, "rows[2] has 9 cells, expected 10");
        assert_eq!(
            e.to_string(),
            "maps/x.ron:3: rows[2] has 9 cells, expected 10"
        );
        let e = FormatError::whole("maps/x.ron", "cannot read the file");
        assert_eq!(e.to_string(), "maps/x.ron: cannot read the file");
    }

    #[test]
    fn bad_utf8_is_located() {
        let e = decode_utf8(b"ab\ncd\xffe".to_vec(), "f").unwrap_err();
        assert_eq!(e.line, Some(2));
        assert!(e.message.contains("column 3"), "{e}");
        assert!(e.message.contains("0xff"), "{e}");
        assert_eq!(decode_utf8(b"ok".to_vec(), "f").unwrap(), "ok");
    }

    #[test]
    fn missing_file_is_named() {
        let e = read_text(Path::new("/nonexistent/dir/x.ron")).unwrap_err();
        assert_eq!(e.file, "/nonexistent/dir/x.ron");
        assert!(e.message.contains("cannot read"), "{e}");
    }
}
