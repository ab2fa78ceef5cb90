//! How a row holds several events: JSON lines, numbered back from the row's last `seq`.

/// Adds the events of one stored row (JSON lines, `last` the seq of the last) with
/// `seq > since` to `out`, up to `limit` in all.
pub(crate) fn split_events(
    last: u64,
    events: &str,
    since: u64,
    out: &mut Vec<(u64, String)>,
    limit: usize,
) {
    if events.is_empty() || last <= since {
        return;
    }
    let count = events.split('\n').count() as u64;
    let first = last + 1 - count;
    for (i, ev) in events.split('\n').enumerate() {
        let seq = first + i as u64;
        if seq > since {
            if out.len() >= limit {
                return;
            }
            out.push((seq, ev.to_owned()));
        }
    }
}

/// Adds `line` to `text`, one per line.
pub(crate) fn join_line(text: &mut String, line: &str) {
    if !text.is_empty() {
        text.push('\n');
    }
    text.push_str(line);
}
