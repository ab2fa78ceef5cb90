//! Ranking permutations of up to 12 items by their Lehmer code (the rank is the position in
//! lexicographic order, so 12! ranks fit a `u32`), and ranking the places of the first k
//! items (a pattern database's index).

/// `n!` for n up to 20.
pub const fn factorial(n: usize) -> u64 {
    let mut f = 1u64;
    let mut i = 2;
    while i <= n {
        f *= i as u64;
        i += 1;
    }
    f
}

/// The lexicographic rank of `p`, a permutation of `0..p.len()` (at most 12 items).
#[inline]
pub fn rank(p: &[u8]) -> u32 {
    let n = p.len();
    let mut seen = 0u32;
    let mut r = 0u32;
    for (i, &v) in p.iter().enumerate() {
        let below = (seen & ((1u32 << v) - 1)).count_ones();
        seen |= 1 << v;
        r = r * (n - i) as u32 + (v as u32 - below);
    }
    r
}

/// The permutation of `0..out.len()` with lexicographic rank `r`.
#[inline]
pub fn unrank(mut r: u32, out: &mut [u8]) {
    let n = out.len();
    let mut digits = [0u8; 12];
    for i in (0..n).rev() {
        let radix = (n - i) as u32;
        digits[i] = (r % radix) as u8;
        r /= radix;
    }
    let mut free: u32 = (1 << n) - 1;
    for i in 0..n {
        // The digits[i]-th unused value.
        let mut f = free;
        for _ in 0..digits[i] {
            f &= f - 1;
        }
        let v = f.trailing_zeros();
        out[i] = v as u8;
        free &= !(1 << v);
    }
}

/// Steps `p` to the next permutation in lexicographic order; `false` after the last.
#[inline]
pub fn next_permutation(p: &mut [u8]) -> bool {
    let n = p.len();
    if n < 2 {
        return false;
    }
    let mut i = n - 1;
    while i > 0 && p[i - 1] >= p[i] {
        i -= 1;
    }
    if i == 0 {
        return false;
    }
    let mut j = n - 1;
    while p[j] <= p[i - 1] {
        j -= 1;
    }
    p.swap(i - 1, j);
    p[i..].reverse();
    true
}

/// The index of an ordered choice of distinct places `places` out of `n`: `0 ..
/// n!/(n-k)!`.
#[inline]
pub fn rank_places(places: &[u8], n: usize) -> u32 {
    let mut seen = 0u32;
    let mut r = 0u32;
    for (i, &v) in places.iter().enumerate() {
        let below = (seen & ((1u32 << v) - 1)).count_ones();
        seen |= 1 << v;
        r = r * (n - i) as u32 + (v as u32 - below);
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_run_in_lexicographic_order_and_round_trip() {
        let mut p = [0u8, 1, 2, 3, 4, 5];
        let mut expected = 0;
        loop {
            assert_eq!(rank(&p), expected);
            let mut q = [0u8; 6];
            unrank(expected, &mut q);
            assert_eq!(q, p);
            expected += 1;
            if !next_permutation(&mut p) {
                break;
            }
        }
        assert_eq!(expected as u64, factorial(6));
        let last: Vec<u8> = (0..12).rev().collect();
        assert_eq!(rank(&last) as u64, factorial(12) - 1);
    }
}
