//! The f-puzzles keys, one row each: what the reader does with it.

use serde_json::Value;

use super::reader::Reader;
use crate::variant::VariantError;

/// How the reader treats a key.
#[derive(Clone, Copy)]
pub enum KeyUse {
    /// A rule: read by this function.
    Rule(fn(&mut Reader, &str, &Value) -> Result<(), VariantError>),
    /// Read before the rules: `size` and `grid`.
    Grid,
    /// Drawing, titles or solver settings: nothing to solve by.
    Passed,
}

/// Every key the reader knows. Any other key is refused by name.
pub const KEYS: &[(&str, KeyUse)] = &[
    ("size", KeyUse::Grid),
    ("grid", KeyUse::Grid),
    ("killercage", KeyUse::Rule(Reader::killer_cages)),
    ("thermometer", KeyUse::Rule(Reader::thermometers)),
    ("arrow", KeyUse::Rule(Reader::arrows)),
    ("diagonal+", KeyUse::Rule(Reader::flag)),
    ("diagonal-", KeyUse::Rule(Reader::flag)),
    ("extraregion", KeyUse::Rule(Reader::extra_regions)),
    ("disjointgroups", KeyUse::Rule(Reader::flag)),
    ("antiknight", KeyUse::Rule(Reader::flag)),
    ("antiking", KeyUse::Rule(Reader::flag)),
    ("nonconsecutive", KeyUse::Rule(Reader::flag)),
    ("odd", KeyUse::Rule(Reader::parity_cells)),
    ("even", KeyUse::Rule(Reader::parity_cells)),
    ("difference", KeyUse::Rule(Reader::dots)),
    ("ratio", KeyUse::Rule(Reader::dots)),
    ("xv", KeyUse::Rule(Reader::dots)),
    ("negative", KeyUse::Rule(Reader::negative)),
    // A cosmetic cage, unless it is a digital-root cage (`DR5`).
    ("cage", KeyUse::Rule(Reader::cosmetic_cages)),
    ("title", KeyUse::Passed),
    ("author", KeyUse::Passed),
    ("ruleset", KeyUse::Passed),
    ("text", KeyUse::Passed),
    ("line", KeyUse::Passed),
    ("rectangle", KeyUse::Passed),
    ("circle", KeyUse::Passed),
    ("solution", KeyUse::Passed),
    ("highlightConflicts", KeyUse::Passed),
    ("disabledlogic", KeyUse::Passed),
    ("truecandidatesoptions", KeyUse::Passed),
];

/// How the reader treats `key`, or `None` for a key it does not know.
pub fn key_use(key: &str) -> Option<KeyUse> {
    KEYS.iter()
        .find(|(name, _)| *name == key)
        .map(|&(_, used)| used)
}
