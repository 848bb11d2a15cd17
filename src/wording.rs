//! Counts in the words of messages: "1 puzzle", "3 puzzles". Errors and
//! summaries are read by people, so a count of one takes the singular;
//! every layer that words a count uses this one rule.

/// `count` followed by the word for one thing or for several.
pub fn counted(count: u64, one: &str, several: &str) -> String {
    match count {
        1 => format!("1 {one}"),
        count => format!("{count} {several}"),
    }
}

/// `count` followed by `noun`, with an "s" unless the count is one.
pub fn count_of(count: impl Into<u64>, noun: &str) -> String {
    counted(count.into(), noun, &format!("{noun}s"))
}

#[cfg(test)]
mod tests {
    use super::{count_of, counted};

    #[test]
    fn one_takes_the_singular_and_every_other_count_the_plural() {
        assert_eq!(counted(1, "puzzle", "puzzles"), "1 puzzle");
        assert_eq!(counted(0, "puzzle", "puzzles"), "0 puzzles");
        assert_eq!(counted(2, "puzzle was", "puzzles were"), "2 puzzles were");
        assert_eq!(count_of(1u32, "stream"), "1 stream");
        assert_eq!(count_of(4u64, "distinct puzzle"), "4 distinct puzzles");
    }
}
