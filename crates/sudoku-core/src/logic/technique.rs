//! The techniques the logical solver knows, their names and ratings, and
//! the levels ratings fall into.
//!
//! Ratings follow Sudoku Explainer's scale, kept in tenths so that they
//! compare exactly. The order of [`Technique`] is the order the grader
//! tries them in, which is Sudoku Explainer's: not strictly by rating (a
//! hidden pair is tried before a naked pair), because a puzzle's rating
//! is only comparable with Sudoku Explainer's when both take the same
//! first step.

use std::fmt;

/// A rating on Sudoku Explainer's scale, in tenths (`Rating(23)` is 2.3).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rating(pub u16);

/// How far a tenth may be off when a number on the scale is turned into
/// tenths: `0.7 * 10.0` is `7.000000000000001` in floating point.
const TENTHS_SLACK: f64 = 1e-6;

impl Rating {
    /// The lowest rating at or above `value` on the scale: ratings come in
    /// tenths, so a floor of 1.45 admits 1.5 and up. Negative values and
    /// NaN give 0.0.
    pub fn at_least(value: f64) -> Rating {
        Rating((value * 10.0 - TENTHS_SLACK).ceil() as u16)
    }

    /// The highest rating at or below `value` on the scale: a ceiling of
    /// 1.45 admits 1.4 and below. Negative values and NaN give 0.0.
    pub fn at_most(value: f64) -> Rating {
        Rating((value * 10.0 + TENTHS_SLACK).floor() as u16)
    }

    /// The rating as a number on the scale, e.g. 2.3.
    pub fn value(self) -> f64 {
        f64::from(self.0) / 10.0
    }

    /// The level a puzzle of this rating belongs to.
    pub fn level(self) -> Level {
        match self.0 {
            0..15 => Level::Easy,
            15..25 => Level::Medium,
            25..50 => Level::Hard,
            50..90 => Level::Diabolical,
            _ => Level::Extreme,
        }
    }
}

impl fmt::Display for Rating {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.0 / 10, self.0 % 10)
    }
}

/// How hard a puzzle is for a person: the buckets of the Sudoku Exchange
/// puzzle bank, by rating.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// Rating below 1.5: hidden singles in boxes.
    Easy,
    /// Rating below 2.5: singles and direct intersections.
    Medium,
    /// Rating below 5.0: subsets, basic fish, wings, uniqueness.
    Hard,
    /// Rating below 9.0: chains, and forcing chains up to dynamic ones.
    Diabolical,
    /// Rating 9.0 and up: forcing chains nested in forcing chains, what the
    /// strongest players hunt.
    Extreme,
}

impl Level {
    /// The lowest and highest rating of the level.
    pub fn ratings(self) -> (Rating, Rating) {
        match self {
            Level::Easy => (Rating(0), Rating(14)),
            Level::Medium => (Rating(15), Rating(24)),
            Level::Hard => (Rating(25), Rating(49)),
            Level::Diabolical => (Rating(50), Rating(89)),
            Level::Extreme => (Rating(90), Rating(u16::MAX)),
        }
    }

    /// Every level, easiest first.
    pub const ALL: [Level; 5] = [
        Level::Easy,
        Level::Medium,
        Level::Hard,
        Level::Diabolical,
        Level::Extreme,
    ];

    /// The lower-case name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Diabolical => "diabolical",
            Level::Extreme => "extreme",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

macro_rules! techniques {
    ($($variant:ident => $name:literal, $rating:literal;)*) => {
        /// A solving technique, roughly in the order the grader tries them.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Technique {
            $(
                #[doc = $name]
                $variant,
            )*
        }

        impl Technique {
            /// Every technique, roughly in the order the grader tries them.
            pub const ALL: &'static [Technique] = &[$(Technique::$variant),*];

            /// The name players know it by, e.g. "X-Wing".
            pub fn name(self) -> &'static str {
                match self {
                    $(Technique::$variant => $name,)*
                }
            }

            /// The technique with this name, if there is one.
            pub fn from_name(name: &str) -> Option<Technique> {
                Technique::ALL.iter().copied().find(|t| t.name() == name)
            }

            /// Its rating, or for chains the rating of the shortest one.
            pub fn base_rating(self) -> Rating {
                match self {
                    $(Technique::$variant => Rating($rating),)*
                }
            }
        }
    };
}

techniques! {
    FullHouse => "Full House", 10;
    HiddenSingleBox => "Hidden Single in a Box", 12;
    HiddenSingleLine => "Hidden Single in a Line", 15;
    DirectPointing => "Direct Pointing", 17;
    DirectClaiming => "Direct Claiming", 19;
    DirectHiddenPair => "Direct Hidden Pair", 20;
    NakedSingle => "Naked Single", 23;
    DirectHiddenTriple => "Direct Hidden Triple", 25;
    Pointing => "Pointing", 26;
    Claiming => "Claiming", 28;
    NakedPair => "Naked Pair", 30;
    XWing => "X-Wing", 32;
    HiddenPair => "Hidden Pair", 34;
    NakedTriple => "Naked Triple", 36;
    Swordfish => "Swordfish", 38;
    HiddenTriple => "Hidden Triple", 40;
    Skyscraper => "Skyscraper", 40;
    TwoStringKite => "Two-String Kite", 41;
    TurbotFish => "Turbot Fish", 41;
    GroupedSkyscraper => "Grouped Skyscraper", 43;
    GroupedTwoStringKite => "Grouped Two-String Kite", 43;
    GroupedTurbotFish => "Grouped Turbot Fish", 43;
    XYWing => "XY-Wing", 42;
    XYZWing => "XYZ-Wing", 44;
    UniqueRectangle1 => "Unique Rectangle Type 1", 45;
    UniqueRectangle2 => "Unique Rectangle Type 2", 45;
    UniqueRectangle4 => "Unique Rectangle Type 4", 45;
    UniqueRectangle3 => "Unique Rectangle Type 3", 46;
    UniqueLoop1 => "Unique Loop Type 1", 46;
    UniqueLoop2 => "Unique Loop Type 2", 46;
    UniqueLoop4 => "Unique Loop Type 4", 46;
    NakedQuad => "Naked Quad", 50;
    Jellyfish => "Jellyfish", 52;
    HiddenQuad => "Hidden Quad", 54;
    WxyzWing => "WXYZ-Wing", 55;
    Bug1 => "BUG+1", 56;
    Bug2 => "BUG Type 2", 57;
    Bug4 => "BUG Type 4", 57;
    Bug3 => "BUG Type 3", 57;
    VwxyzWing => "VWXYZ-Wing", 62;
    AlignedPairExclusion => "Aligned Pair Exclusion", 62;
    UvwxyzWing => "UVWXYZ-Wing", 66;
    XChain => "X-Chain", 54;
    XYChain => "XY-Chain", 70;
    Aic => "Alternating Inference Chain", 70;
    XCycle => "X-Cycle", 65;
    YCycle => "Y-Cycle", 65;
    ForcingXChain => "Forcing X-Chain", 66;
    XYCycle => "XY-Cycle", 70;
    ForcingChain => "Forcing Chain", 70;
    TuvwxyzWing => "TUVWXYZ-Wing", 75;
    AlignedTripleExclusion => "Aligned Triple Exclusion", 75;
    NishioForcingChain => "Nishio Forcing Chain", 75;
    StaticCellForcingChain => "Static Cell Forcing Chain", 80;
    StaticUnitForcingChain => "Static Unit Forcing Chain", 80;
    ContradictionForcingChain => "Contradiction Forcing Chain", 85;
    CellForcingChain => "Cell Forcing Chain", 85;
    UnitForcingChain => "Unit Forcing Chain", 85;
    DoubleForcingChain => "Double Forcing Chain", 85;
    DynamicForcingChainPlus => "Dynamic Forcing Chain (+)", 90;
    NestedForcingChain => "Nested Forcing Chain (+ Forcing Chains)", 95;
    NestedMultipleForcingChain => "Nested Forcing Chain (+ Multiple Forcing Chains)", 100;
    NestedDynamicForcingChain => "Nested Forcing Chain (+ Dynamic Forcing Chains)", 105;
}

/// Sudoku Explainer's extra rating for a chain of `complexity` nodes:
/// a tenth each time the length passes a ceiling that starts at 4 and
/// grows by half and by a third in turn (4, 6, 8, 12, 16, 24, ...).
pub fn length_bonus(complexity: usize) -> u16 {
    let length = complexity.saturating_sub(2);
    let (mut bonus, mut ceiling, mut odd) = (0, 4, false);
    while length > ceiling {
        bonus += 1;
        ceiling = if odd {
            ceiling * 4 / 3
        } else {
            ceiling * 3 / 2
        };
        odd = !odd;
    }
    bonus
}

impl fmt::Display for Technique {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chains_gain_a_tenth_each_time_their_length_passes_a_ceiling() {
        let bonuses: Vec<u16> = [6, 7, 8, 9, 10, 11, 14, 15, 18, 19]
            .map(length_bonus)
            .to_vec();
        assert_eq!(bonuses, [0, 1, 1, 2, 2, 3, 3, 4, 4, 5]);
    }

    #[test]
    fn bounds_on_the_scale_become_the_tenths_they_admit() {
        for (value, floor, ceiling) in [
            (0.7, 7, 7),
            (7.3, 73, 73),
            (1.45, 15, 14),
            (1.41, 15, 14),
            (1.49, 15, 14),
            (20.0, 200, 200),
            (0.0, 0, 0),
        ] {
            assert_eq!(Rating::at_least(value), Rating(floor), "at least {value}");
            assert_eq!(Rating::at_most(value), Rating(ceiling), "at most {value}");
        }
    }

    #[test]
    fn levels_follow_the_exchange_buckets() {
        let levels = [14, 15, 24, 25, 49, 50, 89, 90, 200].map(|tenths| Rating(tenths).level());
        use Level::*;
        assert_eq!(
            levels,
            [
                Easy, Medium, Medium, Hard, Hard, Diabolical, Diabolical, Extreme, Extreme
            ]
        );
        for level in Level::ALL {
            let (low, high) = level.ratings();
            assert_eq!((low.level(), high.level()), (level, level), "{level}");
        }
    }
}
