//! The `size` and `grid` keys: the grid's side, its givens, its regions
//! and the old per-cell odd and even marks.
//!
//! Only `given: true` values are givens; a value without it is a player's
//! progress. `region` is 0-based and written only where it differs from
//! the standard box. Pencil marks and colours draw nothing to solve by;
//! `givenPencilMarks`, which restricts a cell, is refused, as is a cell in
//! no region (`"region": null`).

use serde_json::{Map, Value};

use crate::variant::constraints::{Constraint, Parity};
use crate::variant::error::{Place, VariantError, shown};
use crate::variant::geometry::Shape;

/// What the grid says.
pub struct GridParts {
    pub shape: Shape,
    pub givens: Vec<u8>,
    pub regions: Vec<u8>,
    /// Odd and even marks kept on cells, each with the field it came from.
    pub parities: Vec<(Constraint, String)>,
}

/// Cell keys that only draw: colours and a player's pencil marks.
const DRAWN_CELL_KEYS: [&str; 5] = [
    "c",
    "cArray",
    "centerPencilMarks",
    "cornerPencilMarks",
    "highlight",
];

fn malformed(field: String, problem: impl Into<String>) -> VariantError {
    VariantError::malformed(Place::Field(field), problem)
}

/// Reads `size` and `grid`.
pub fn read_grid(object: &Map<String, Value>) -> Result<GridParts, VariantError> {
    let rows = match object.get("grid") {
        Some(Value::Array(rows)) => rows,
        Some(_) => return Err(malformed("grid".into(), "expected an array of rows")),
        None => {
            return Err(malformed(
                "grid".into(),
                "missing: an f-puzzles puzzle has a grid",
            ));
        }
    };
    let side = rows.len();
    if let Some(size) = object.get("size") {
        let declared = size
            .as_u64()
            .ok_or_else(|| malformed("size".into(), "expected a number"))?;
        if declared != side as u64 {
            return Err(malformed(
                "size".into(),
                format!("says {declared}, but the grid has {side} rows"),
            ));
        }
    }
    let shape = Shape::new(side).ok_or(VariantError::UnsupportedSize {
        place: Place::Field("grid".into()),
        size: side,
    })?;
    let mut parts = GridParts {
        shape,
        givens: vec![0; shape.cell_count()],
        regions: shape.standard_regions(),
        parities: Vec::new(),
    };
    for (row, cells) in rows.iter().enumerate() {
        let field = format!("grid[{row}]");
        let cells = cells
            .as_array()
            .filter(|cells| cells.len() == side)
            .ok_or_else(|| {
                malformed(field.clone(), format!("expected an array of {side} cells"))
            })?;
        for (column, cell) in cells.iter().enumerate() {
            read_cell(&mut parts, row * side + column, cell)?;
        }
    }
    Ok(parts)
}

fn read_cell(parts: &mut GridParts, cell: usize, value: &Value) -> Result<(), VariantError> {
    let shape = parts.shape;
    let name = shape.cell_name(cell);
    let field = format!("grid[{}][{}]", name.row - 1, name.column - 1);
    let object = match value {
        Value::Object(object) => object,
        Value::Null => return Ok(()),
        _ => return Err(malformed(field, format!("{name}: expected a cell object"))),
    };
    let given = match object.get("given") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(given)) => *given,
        Some(_) => {
            return Err(malformed(
                format!("{field}.given"),
                format!("{name}: expected true or false"),
            ));
        }
    };
    for (key, value) in object {
        let at = format!("{field}.{key}");
        match key.as_str() {
            "value" if given => parts.givens[cell] = given_digit(shape, value, &at, &name)?,
            "value" | "given" => {}
            "region" => parts.regions[cell] = region(shape, value, &at, &name)?,
            "parity" => {
                let odd = match value.as_str().map(str::to_ascii_lowercase).as_deref() {
                    Some("odd") => true,
                    Some("even") => false,
                    _ => {
                        return Err(malformed(
                            at,
                            format!("{name}: expected \"Odd\" or \"Even\""),
                        ));
                    }
                };
                parts.parities.push((Parity { cell, odd }.into(), at));
            }
            "givenPencilMarks" if is_empty(value) => {}
            key if DRAWN_CELL_KEYS.contains(&key) => {}
            _ => {
                return Err(malformed(
                    at,
                    format!("{name}: the cell key {:?} is not supported", shown(key)),
                ));
            }
        }
    }
    Ok(())
}

/// True for a value that says nothing: null, false, empty.
pub fn is_empty(value: &Value) -> bool {
    match value {
        Value::Null | Value::Bool(false) => true,
        Value::Array(items) => items.is_empty(),
        Value::String(text) => text.is_empty(),
        Value::Object(map) => map.is_empty(),
        _ => false,
    }
}

/// A given digit: a number (or a string of one) from 0 to the size.
fn given_digit(
    shape: Shape,
    value: &Value,
    at: &str,
    name: &impl std::fmt::Display,
) -> Result<u8, VariantError> {
    let digit = match value {
        Value::Number(number) => number.as_u64(),
        Value::String(text) => text.parse::<u64>().ok(),
        Value::Null => Some(0),
        _ => None,
    };
    match digit {
        Some(digit) if digit <= shape.size() as u64 => Ok(digit as u8),
        _ => Err(malformed(
            at.to_owned(),
            format!(
                "{name}: a given must be a digit from 1 to {}, not {}",
                shape.size(),
                shown(&value.to_string())
            ),
        )),
    }
}

/// A region index, 0-based.
fn region(
    shape: Shape,
    value: &Value,
    at: &str,
    name: &impl std::fmt::Display,
) -> Result<u8, VariantError> {
    match value.as_u64() {
        Some(region) if region < shape.size() as u64 => Ok(region as u8),
        _ if value.is_null() => Err(malformed(
            at.to_owned(),
            format!("{name} is in no region; every cell must be in one"),
        )),
        _ => Err(malformed(
            at.to_owned(),
            format!(
                "{name}: a region is a number from 0 to {}, not {}",
                shape.size() - 1,
                shown(&value.to_string())
            ),
        )),
    }
}
