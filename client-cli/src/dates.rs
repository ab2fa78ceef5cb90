//! Times the server sends (ms since the Unix epoch) as the terminal shows them, in UTC: a
//! day for the archive, a minute for deadlines.

/// `YYYY-MM-DD`.
pub fn day(ms: u64) -> String {
    at(ms).map(|t| t.date().to_string()).unwrap_or_default()
}

/// `YYYY-MM-DD HH:MM UTC`.
pub fn minute(ms: u64) -> String {
    at(ms)
        .map(|t| format!("{} {:02}:{:02} UTC", t.date(), t.hour(), t.minute()))
        .unwrap_or_default()
}

fn at(ms: u64) -> Option<time::OffsetDateTime> {
    time::OffsetDateTime::from_unix_timestamp_nanos(i128::from(ms) * 1_000_000).ok()
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_deadline_reads_in_utc_to_the_minute() {
        // 1_800_000_000_000 ms: 2027-01-15 08:00:00 UTC.
        assert_eq!(super::minute(1_800_000_000_000), "2027-01-15 08:00 UTC");
        assert_eq!(super::day(1_800_000_000_000), "2027-01-15");
    }
}
