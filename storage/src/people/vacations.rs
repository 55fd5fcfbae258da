//! Vacations: while an account is on vacation, the turn clock of every seat it holds stands
//! still. A vacation starts when it is asked for and runs until the time given (or until it is
//! ended early); every to-act seat's turn deadline is pushed back by the vacation's length when
//! it starts, moved with it when it is changed, and brought forward by the unused rest when it
//! ends early, so a seat always gets its full `move_minutes` of time off vacation. A seat whose
//! turn starts during the vacation gets its full time from the vacation's end. The time used
//! counts against a yearly allowance (per calendar year, UTC).

use serde::Serialize;
use utoipa::ToSchema;

use crate::error::{Result, StoreError};
use crate::time::{year_of, year_start_ms};
use crate::Refusal;
use crate::{rfc3339, Store};

/// The yearly allowance, in days of vacation actually used per calendar year (UTC).
pub const VACATION_DAYS_PER_YEAR: i64 = 30;
const DAY_MS: i64 = 86_400_000;

/// An account's vacation and allowance.
#[derive(Clone, Debug, Serialize, ToSchema)]
pub struct VacationStatus {
    /// Whether the account is on vacation now (its turn clocks stand still).
    pub on_vacation: bool,
    /// When the current vacation ends (RFC 3339); absent when not on vacation.
    pub until: Option<String>,
    /// The calendar year (UTC) the figures below are for: this year.
    pub year: i64,
    /// Days of vacation per calendar year.
    pub allowance_days: i64,
    /// Vacation time used this year so far, in days (hours count as fractions of a day).
    pub used_days: f64,
    /// The rest of the current vacation within this year, in days.
    pub planned_days: f64,
    /// What is left to ask for this year, in days.
    pub remaining_days: f64,
}

/// A vacation as stored.
#[derive(Clone, Copy, Debug)]
struct Period {
    starts: i64,
    ends: i64,
}

impl Period {
    /// How much of it falls within `[from, to)`.
    fn within(self, from: i64, to: i64) -> i64 {
        (self.ends.min(to) - self.starts.max(from)).max(0)
    }
}

fn days(ms: i64) -> f64 {
    (ms as f64 / DAY_MS as f64 * 1000.0).round() / 1000.0
}

fn status(periods: &[Period], now: i64) -> VacationStatus {
    let year = year_of(now);
    let (from, to) = (year_start_ms(year), year_start_ms(year + 1));
    let current = periods.iter().find(|p| p.starts <= now && now < p.ends);
    let used: i64 = periods.iter().map(|p| p.within(from, now.min(to))).sum();
    let planned = current.map_or(0, |p| Period { starts: now, ..*p }.within(from, to));
    VacationStatus {
        on_vacation: current.is_some(),
        until: current.map(|p| rfc3339(p.ends)),
        year,
        allowance_days: VACATION_DAYS_PER_YEAR,
        used_days: days(used),
        planned_days: days(planned),
        remaining_days: days(VACATION_DAYS_PER_YEAR * DAY_MS - used - planned),
    }
}

impl Store {
    /// The account's vacation now and this year's allowance.
    pub async fn vacation(&self, account: i64) -> Result<VacationStatus> {
        let client = self.pool.get().await?;
        let now = self.now_ms();
        let periods = periods(&client, account, year_start_ms(year_of(now))).await?;
        Ok(status(&periods, now))
    }

    /// Starts a vacation until `until` (ms), or moves the end of the current one. Refused when
    /// `until` is not in the future or the allowance of a year it touches would be exceeded.
    pub async fn set_vacation(&self, account: i64, until: i64) -> Result<VacationStatus> {
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        lock_account(&tx, account).await?;
        let now = self.now_ms();
        if until <= now {
            return Err(StoreError::Refused(Refusal::VacationNotInFuture));
        }
        let periods = periods(&tx, account, year_start_ms(year_of(now))).await?;
        let current = periods
            .iter()
            .copied()
            .find(|p| p.starts <= now && now < p.ends);
        let planned = Period {
            starts: current.map_or(now, |p| p.starts),
            ends: until,
        };
        for year in year_of(now)..=year_of(until) {
            let (from, to) = (year_start_ms(year), year_start_ms(year + 1));
            let others: i64 = periods
                .iter()
                .filter(|p| Some(p.starts) != current.map(|c| c.starts))
                .map(|p| p.within(from, to))
                .sum();
            let total = others + planned.within(from, to);
            if total > VACATION_DAYS_PER_YEAR * DAY_MS {
                return Err(StoreError::Refused(Refusal::VacationAllowanceExceeded {
                    year,
                    asked_days: days(total),
                    allowance_days: VACATION_DAYS_PER_YEAR,
                }));
            }
        }
        let shift = match current {
            Some(c) => {
                tx.execute(
                    "UPDATE vacations SET ends_ms = $3 WHERE account_id = $1 AND starts_ms = $2",
                    &[&account, &c.starts, &until],
                )
                .await?;
                until - c.ends
            }
            None => {
                tx.execute(
                    "INSERT INTO vacations (account_id, starts_ms, ends_ms) VALUES ($1, $2, $3)",
                    &[&account, &now, &until],
                )
                .await?;
                until - now
            }
        };
        shift_turn_deadlines(&tx, account, now, shift).await?;
        let periods = self::periods(&tx, account, year_start_ms(year_of(now))).await?;
        tx.commit().await?;
        tracing::info!(account, until, "vacation set");
        Ok(status(&periods, now))
    }

    /// Ends the current vacation now (nothing when not on vacation): the turn deadlines come
    /// forward by the unused rest, and only the time used counts against the allowance.
    pub async fn end_vacation(&self, account: i64) -> Result<VacationStatus> {
        let mut client = self.pool.get().await?;
        let tx = client.transaction().await?;
        lock_account(&tx, account).await?;
        let now = self.now_ms();
        let row = tx
            .query_opt(
                "UPDATE vacations v SET ends_ms = $2 FROM vacations old
                 WHERE v.account_id = $1 AND v.starts_ms <= $2 AND v.ends_ms > $2
                   AND old.account_id = v.account_id AND old.starts_ms = v.starts_ms
                 RETURNING old.ends_ms",
                &[&account, &now],
            )
            .await?;
        if let Some(row) = row {
            let old_end: i64 = row.get(0);
            shift_turn_deadlines(&tx, account, now, now - old_end).await?;
            tracing::info!(account, "vacation ended early");
        }
        let periods = periods(&tx, account, year_start_ms(year_of(now))).await?;
        tx.commit().await?;
        Ok(status(&periods, now))
    }
}

/// Serialises vacation changes of one account (and refuses an account that is gone).
async fn lock_account(client: &impl deadpool_postgres::GenericClient, account: i64) -> Result<()> {
    client
        .query_opt(
            "SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE",
            &[&account],
        )
        .await?
        .ok_or(Refusal::UnknownAccount)?;
    Ok(())
}

/// The account's vacations that end after `since`, oldest first.
async fn periods(
    client: &impl deadpool_postgres::GenericClient,
    account: i64,
    since: i64,
) -> Result<Vec<Period>> {
    Ok(client
        .query(
            "SELECT starts_ms, ends_ms FROM vacations WHERE account_id = $1 AND ends_ms > $2 ORDER BY starts_ms",
            &[&account, &since],
        )
        .await?
        .iter()
        .map(|r| Period {
            starts: r.get(0),
            ends: r.get(1),
        })
        .collect())
}

/// Moves the turn deadlines still ahead of the account's seats in running games by `shift` ms
/// (a deadline already passed is left to the sweep), and each game's next deadline with them.
async fn shift_turn_deadlines(
    client: &impl deadpool_postgres::GenericClient,
    account: i64,
    now: i64,
    shift: i64,
) -> Result<()> {
    // The rows are locked in id order, so that two vacations changing at once cannot deadlock.
    client
        .execute(
            "WITH mine AS (
                 SELECT g.id, s.seat FROM games g JOIN seats s ON s.game_id = g.id AND s.account_id = $1
                 WHERE g.status = 'active' AND g.turn_deadlines[s.seat + 1] > $2
                 ORDER BY g.id FOR UPDATE OF g)
             UPDATE games g SET turn_deadlines[mine.seat + 1] = g.turn_deadlines[mine.seat + 1] + $3
             FROM mine WHERE g.id = mine.id",
            &[&account, &now, &shift],
        )
        .await?;
    client
        .execute(
            "UPDATE games g SET deadline_ms = earliest_deadline(g.rule_deadline_ms, g.turn_deadlines)
             FROM seats s WHERE s.game_id = g.id AND s.account_id = $1 AND g.status = 'active'",
            &[&account],
        )
        .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_the_time_used_this_year() {
        let year = year_start_ms(2027);
        let now = year + 10 * DAY_MS;
        let periods = [
            // Half of it last year.
            Period {
                starts: year - 2 * DAY_MS,
                ends: year + 2 * DAY_MS,
            },
            // Running: 3 days used, 4 to come.
            Period {
                starts: now - 3 * DAY_MS,
                ends: now + 4 * DAY_MS,
            },
        ];
        let s = status(&periods, now);
        assert!(s.on_vacation);
        assert_eq!(s.year, 2027);
        assert_eq!(s.used_days, 5.0);
        assert_eq!(s.planned_days, 4.0);
        assert_eq!(s.remaining_days, 21.0);
    }
}
