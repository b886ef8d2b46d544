//! A map's rows as scenario files write them: `.` plain ground, `#` a wall, `2`-`9` weights.

use crate::grid::{Grid, Pos, Terrain};

/// What is wrong, and in which row: `None` for the rows as a whole.
pub(super) type RowError = (Option<usize>, String);

/// The character for a stored cell byte: `#` for a wall, `.` for weight 1, else the digit.
pub(super) fn cell_char(weight: u8) -> char {
    match weight {
        0 => '#',
        1 => '.',
        w => char::from_digit(w as u32, 10).unwrap_or('?'),
    }
}

/// A grid from rows written as in a scenario file: `.` free, `#` wall, `2`-`9` weights.
///
/// ```
/// let grid = gridwalk_core::format::grid_from_rows(&["..#", ".3."]).unwrap();
/// assert_eq!(grid.weight(2), 0);
/// assert!(gridwalk_core::format::grid_from_rows(&["..", "."]).unwrap_err().contains("rows[1]"));
/// ```
pub fn grid_from_rows<S: AsRef<str>>(rows: &[S]) -> Result<Grid, String> {
    parse_rows(rows).map_err(|(_, message)| message)
}

/// Builds the grid from the row strings, checking the size before allocating.
pub(super) fn parse_rows<S: AsRef<str>>(rows: &[S]) -> Result<Grid, RowError> {
    let Some(first) = rows.first().map(AsRef::as_ref) else {
        return Err((None, "no rows: a map needs at least one row".to_owned()));
    };
    let width = first.chars().count();
    if width == 0 {
        return Err((Some(0), "rows[0] is empty".to_owned()));
    }
    // Refuse an absurd size before allocating for it; after this check both fit in u32.
    let too_large = |e: crate::grid::GridError| (None, format!("map too large: {e}"));
    Grid::check_size(width as u64, rows.len() as u64).map_err(too_large)?;
    let mut grid = Grid::new(width as u32, rows.len() as u32).map_err(too_large)?;
    for (y, row) in rows.iter().enumerate() {
        let row = row.as_ref();
        let n = row.chars().count();
        if n != width {
            return Err((
                Some(y),
                format!("rows[{y}] has {n} cells, expected {width} like rows[0]"),
            ));
        }
        for (x, c) in row.chars().enumerate() {
            let terrain = match c {
                '.' | '1' => Terrain::FREE,
                '#' => Terrain::Wall,
                '2'..='9' => Terrain::Weight(c as u8 - b'0'),
                '0' => {
                    return Err((
                        Some(y),
                        format!("rows[{y}]: weight 0 at x = {x} is not in 1-9"),
                    ));
                }
                c => {
                    return Err((
                        Some(y),
                        format!(
                            "rows[{y}]: unknown character {c:?} at x = {x}; \
                             expected '.', '#' or a weight digit 1-9"
                        ),
                    ));
                }
            };
            grid.set(Pos::new(x as u32, y as u32), terrain)
                .map_err(|e| (Some(y), e.to_string()))?;
        }
    }
    Ok(grid)
}
