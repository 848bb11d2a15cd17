//! The readers of the rule keys, one method a key (or a family of keys),
//! each constraint remembered with the field it came from so that the
//! puzzle's own checks name that field.
//!
//! The details follow how f-puzzles writes and rangsk's solver reads: an
//! arrow's line starts at its bulb and that cell is not summed, several
//! lines are several arrows or thermometers, values are strings, a dot
//! without a value is 1 (white) or 2 (black), `negative` knows `ratio` and
//! `xv`, and an X or V with no letter is no clue at all.

use serde_json::Value;

use super::grid::is_empty;
use crate::variant::constraints::{
    AntiKing, AntiKnight, Arrow, Cage, Constraint, Diagonal, Difference, DisjointGroups,
    ExtraRegion, NegativeRatio, NegativeXv, NonConsecutive, Parity, Ratio, Thermometer, XvSum,
};
use crate::variant::error::{Place, VariantError, shown};
use crate::variant::geometry::Shape;

/// The puzzle being read, and where each constraint came from.
pub struct Reader {
    shape: Shape,
    constraints: Vec<Constraint>,
    fields: Vec<String>,
}

fn malformed(field: impl Into<String>, problem: impl Into<String>) -> VariantError {
    VariantError::malformed(Place::Field(field.into()), problem)
}

impl Reader {
    /// A reader for a grid of `shape`.
    pub fn new(shape: Shape) -> Reader {
        Reader {
            shape,
            constraints: Vec::new(),
            fields: Vec::new(),
        }
    }

    /// The constraints read, and the field each came from.
    pub fn finish(self) -> (Vec<Constraint>, Vec<String>) {
        (self.constraints, self.fields)
    }

    /// Adds a constraint read from `field`.
    pub fn push(&mut self, constraint: impl Into<Constraint>, field: String) {
        self.constraints.push(constraint.into());
        self.fields.push(field);
    }

    /// The entries of an array-valued key.
    fn entries<'v>(key: &str, value: &'v Value) -> Result<&'v [Value], VariantError> {
        value
            .as_array()
            .map(Vec::as_slice)
            .ok_or_else(|| malformed(key, "expected an array"))
    }

    /// A cell named `R1C1` (either case, decimal past 9).
    fn cell(&self, value: &Value, field: &str) -> Result<usize, VariantError> {
        let text = value.as_str().ok_or_else(|| {
            malformed(
                field,
                format!(
                    "expected a cell name like \"R1C1\", not {}",
                    shown(&value.to_string())
                ),
            )
        })?;
        let parsed = parse_cell_name(text).ok_or_else(|| {
            malformed(
                field,
                format!("{:?} is not a cell name like \"R1C1\"", shown(text)),
            )
        })?;
        let (row, column) = parsed;
        let size = self.shape.size();
        match (row.checked_sub(1), column.checked_sub(1)) {
            (Some(r), Some(c)) if r < size && c < size => Ok(r * size + c),
            _ => Err(malformed(
                field,
                format!("{} is outside the {size}×{size} grid", shown(text)),
            )),
        }
    }

    /// The cells of an array of names.
    fn cells(&self, value: Option<&Value>, field: &str) -> Result<Vec<usize>, VariantError> {
        let names = value
            .and_then(Value::as_array)
            .ok_or_else(|| malformed(field, "expected an array of cell names"))?;
        names
            .iter()
            .enumerate()
            .map(|(i, name)| self.cell(name, &format!("{field}[{i}]")))
            .collect()
    }

    pub fn killer_cages(&mut self, key: &str, value: &Value) -> Result<(), VariantError> {
        for (i, entry) in Self::entries(key, value)?.iter().enumerate() {
            let field = format!("{key}[{i}]");
            let cells = self.cells(entry.get("cells"), &format!("{field}.cells"))?;
            let sum = match entry.get("value") {
                None => None,
                Some(value) if is_empty(value) => None,
                Some(value) => Some(whole_number(value, &format!("{field}.value"))?),
            };
            self.push(Cage { cells, sum }, field);
        }
        Ok(())
    }

    /// Every line of every entry, with its field.
    /// The lines of one entry (`{"lines": [[…], …]}` at `field`), each
    /// with its own field.
    fn entry_lines(
        &self,
        entry: &Value,
        field: &str,
    ) -> Result<Vec<(Vec<usize>, String)>, VariantError> {
        let field = format!("{field}.lines");
        let listed = entry
            .get("lines")
            .and_then(Value::as_array)
            .ok_or_else(|| malformed(field.as_str(), "expected an array of lines"))?;
        listed
            .iter()
            .enumerate()
            .map(|(j, line)| {
                let at = format!("{field}[{j}]");
                Ok((self.cells(Some(line), &at)?, at))
            })
            .collect()
    }

    pub fn thermometers(&mut self, key: &str, value: &Value) -> Result<(), VariantError> {
        for (i, entry) in Self::entries(key, value)?.iter().enumerate() {
            for (cells, field) in self.entry_lines(entry, &format!("{key}[{i}]"))? {
                self.push(Thermometer { cells }, field);
            }
        }
        Ok(())
    }

    pub fn arrows(&mut self, key: &str, value: &Value) -> Result<(), VariantError> {
        for (i, entry) in Self::entries(key, value)?.iter().enumerate() {
            let field = format!("{key}[{i}]");
            let bulb = self.cells(entry.get("cells"), &format!("{field}.cells"))?;
            for (line, at) in self.entry_lines(entry, &field)? {
                // The line starts where it leaves the bulb; that cell is
                // not summed. A line that starts elsewhere is refused, not
                // read some other way.
                if let Some(&start) = line.first()
                    && !bulb.contains(&start)
                {
                    let name = self.shape.cell_name(start);
                    return Err(malformed(
                        at,
                        format!("the arrow's line starts at {name}, outside its bulb"),
                    ));
                }
                let line = line[1.min(line.len())..].to_vec();
                if line.is_empty() {
                    return Err(malformed(at, "the arrow's line has no cell past its start"));
                }
                self.push(
                    Arrow {
                        bulb: bulb.clone(),
                        line,
                    },
                    at,
                );
            }
        }
        Ok(())
    }

    pub fn extra_regions(&mut self, key: &str, value: &Value) -> Result<(), VariantError> {
        for (i, entry) in Self::entries(key, value)?.iter().enumerate() {
            let field = format!("{key}[{i}]");
            let cells = self.cells(entry.get("cells"), &format!("{field}.cells"))?;
            self.push(ExtraRegion { cells }, field);
        }
        Ok(())
    }

    pub fn parity_cells(&mut self, key: &str, value: &Value) -> Result<(), VariantError> {
        let odd = key == "odd";
        for (i, entry) in Self::entries(key, value)?.iter().enumerate() {
            let field = format!("{key}[{i}]");
            let name = entry
                .get("cell")
                .ok_or_else(|| malformed(field.as_str(), "expected a \"cell\""))?;
            let cell = self.cell(name, &format!("{field}.cell"))?;
            self.push(Parity { cell, odd }, field);
        }
        Ok(())
    }

    pub fn dots(&mut self, key: &str, value: &Value) -> Result<(), VariantError> {
        for (i, entry) in Self::entries(key, value)?.iter().enumerate() {
            let field = format!("{key}[{i}]");
            let cells = self.cells(entry.get("cells"), &format!("{field}.cells"))?;
            let cells: [usize; 2] = cells.try_into().map_err(|cells: Vec<usize>| {
                malformed(
                    format!("{field}.cells"),
                    format!("expected 2 cells, found {}", cells.len()),
                )
            })?;
            let label = entry.get("value").filter(|value| !is_empty(value));
            let at = format!("{field}.value");
            let constraint: Constraint = match key {
                "difference" => Difference {
                    cells,
                    difference: label.map_or(Ok(1), |v| whole_number(v, &at))?,
                }
                .into(),
                "ratio" => Ratio {
                    cells,
                    ratio: label.map_or(Ok(2), |v| whole_number(v, &at))?,
                }
                .into(),
                // An XV entry with no letter is no clue (f-puzzles leaves
                // such entries behind).
                _ => match label.map(|value| value.as_str()) {
                    None => continue,
                    Some(Some("X" | "x")) => XvSum { cells, sum: 10 }.into(),
                    Some(Some("V" | "v")) => XvSum { cells, sum: 5 }.into(),
                    Some(_) => {
                        let shown = label.map(ToString::to_string).unwrap_or_default();
                        return Err(malformed(
                            at,
                            format!("expected \"X\" or \"V\", not {shown}"),
                        ));
                    }
                },
            };
            self.push(constraint, field);
        }
        Ok(())
    }

    pub fn flag(&mut self, key: &str, value: &Value) -> Result<(), VariantError> {
        if value.as_bool() != Some(true) {
            return Err(malformed(
                key,
                format!("expected true or false, not {}", shown(&value.to_string())),
            ));
        }
        let constraint: Constraint = match key {
            "diagonal+" => Diagonal::Positive.into(),
            "diagonal-" => Diagonal::Negative.into(),
            "disjointgroups" => DisjointGroups.into(),
            "antiknight" => AntiKnight.into(),
            "antiking" => AntiKing.into(),
            _ => NonConsecutive.into(),
        };
        self.push(constraint, key.to_owned());
        Ok(())
    }

    pub fn negative(&mut self, key: &str, value: &Value) -> Result<(), VariantError> {
        for (i, entry) in Self::entries(key, value)?.iter().enumerate() {
            let field = format!("{key}[{i}]");
            let constraint: Constraint = match entry.as_str() {
                Some("ratio") => NegativeRatio.into(),
                Some("xv") => NegativeXv.into(),
                _ => {
                    return Err(malformed(
                        field,
                        format!(
                            "the negative rule {entry} is not supported (only \"ratio\" and \"xv\")"
                        ),
                    ));
                }
            };
            self.push(constraint, field);
        }
        Ok(())
    }

    /// `cage` draws cages; only a digital-root cage (`DR5`) is a rule, and
    /// it is not supported.
    pub fn cosmetic_cages(&mut self, key: &str, value: &Value) -> Result<(), VariantError> {
        for (i, entry) in Self::entries(key, value)?.iter().enumerate() {
            let label = entry.get("value").and_then(Value::as_str).unwrap_or("");
            // Bytes, not a slice of the text: a label may start with a
            // character of several bytes.
            let bytes = label.as_bytes();
            if bytes.len() > 2
                && bytes[..2].eq_ignore_ascii_case(b"DR")
                && bytes[2..].iter().all(u8::is_ascii_digit)
            {
                return Err(malformed(
                    format!("{key}[{i}].value"),
                    format!("the digital-root cage {label:?} is not supported"),
                ));
            }
        }
        Ok(())
    }
}

/// A positive whole number, written as a number or a string of digits.
fn whole_number(value: &Value, field: &str) -> Result<u32, VariantError> {
    let number = match value {
        Value::Number(number) => number.as_u64(),
        Value::String(text) if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) => {
            text.parse::<u64>().ok()
        }
        _ => None,
    };
    number
        .filter(|&n| (1..=u64::from(u32::MAX)).contains(&n))
        .map(|n| n as u32)
        .ok_or_else(|| {
            malformed(
                field,
                format!(
                    "expected a whole number from 1 up, not {}",
                    shown(&value.to_string())
                ),
            )
        })
}

/// `R12C3` as (12, 3); `None` unless it is `R`, digits, `C`, digits.
fn parse_cell_name(text: &str) -> Option<(usize, usize)> {
    let rest = text.strip_prefix(['R', 'r'])?;
    let split = rest.find(['C', 'c'])?;
    let (row, column) = (&rest[..split], &rest[split + 1..]);
    let number = |digits: &str| {
        (!digits.is_empty() && digits.len() <= 3 && digits.bytes().all(|b| b.is_ascii_digit()))
            .then(|| digits.parse().ok())
            .flatten()
    };
    Some((number(row)?, number(column)?))
}
