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
pub(crate) fn next_offset<T>(rows: &mut Vec<T>, limit: i64, offset: i64) -> Option<i64> {
    cut(rows, limit).then_some(offset + limit)
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
