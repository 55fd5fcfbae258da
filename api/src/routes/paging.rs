//! Pages of a list: each is read from the store with one row more than asked for, which tells
//! whether another page follows; the extra row is then cut off.

use crate::error::{ApiError, ApiResult};

/// Refuses a page by offset unless `limit` is 1 to 100 and `offset` 0 or more.
pub(crate) fn check_offset_page(limit: i64, offset: i64) -> ApiResult<()> {
    if !(1..=100).contains(&limit) || offset < 0 {
        return Err(ApiError::bad_request(
            "invalid_query",
            "`limit` is 1 to 100; `offset` is 0 or more.",
        ));
    }
    Ok(())
}

/// Cuts `rows` (read with `limit + 1`) to the page; true when another page follows.
fn cut<T>(rows: &mut Vec<T>, limit: i64) -> bool {
    if rows.len() as i64 > limit {
        rows.truncate(limit as usize);
        true
    } else {
        false
    }
}

/// For pages by offset: cuts the page and answers the next page's `offset`, if one follows.
/// The sum is made only when a page follows: an offset far beyond the rows (up to `i64::MAX`)
/// is a valid request for an empty page.
pub(crate) fn next_offset<T>(rows: &mut Vec<T>, limit: i64, offset: i64) -> Option<i64> {
    if cut(rows, limit) {
        Some(offset + limit)
    } else {
        None
    }
}

/// For pages going back by id: cuts the page and answers its last row's id, the next page's
/// `before`, if one follows.
pub(crate) fn next_before<T>(rows: &mut Vec<T>, limit: i64, id: impl Fn(&T) -> i64) -> Option<i64> {
    if cut(rows, limit) {
        rows.last().map(id)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_offset_beyond_every_row_is_an_empty_last_page() {
        let mut rows: Vec<i64> = Vec::new();
        assert_eq!(next_offset(&mut rows, 20, i64::MAX - 1), None);
    }

    #[test]
    fn the_extra_row_is_cut_and_tells_where_the_next_page_starts() {
        let mut rows = vec![1, 2, 3];
        assert_eq!(next_offset(&mut rows, 2, 10), Some(12));
        assert_eq!(rows, [1, 2]);
        let mut rows = vec![5, 4, 3];
        assert_eq!(next_before(&mut rows, 2, |r| *r), Some(4));
        let mut rows = vec![5, 4];
        assert_eq!(next_before(&mut rows, 2, |r| *r), None);
    }
}
