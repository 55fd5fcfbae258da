-- PostgreSQL's CPU per command (issue 24), third round: the append statement
-- (`storage/src/append.rs`) of a game without the turn clock no longer sets the clock's columns
-- (so the trigger on `clock_bot_seats` is not even looked at), no longer reads the lobby row a
-- second time for the notices (the kind is given, the seats waited for are read only when
-- someone listens), and no longer meets the trigger below. Counted with
-- `scripts/pg-instructions-per-append` (callgrind on `postgres --single` replaying the append
-- 20 and 200 times; Burgbaumeister, one event per command): 0.675 M instructions per append
-- before, 0.625 M with the unclocked statement and this trigger gone, 0.617 M without the
-- second read of the lobby row (Mauerbauer, two events: 0.760 M before, 0.681 M after).

-- The clock's bot's own move ended its hand-over twice: by this trigger, whose WHEN clause every
-- command's INSERT read back from its stored text and evaluated, and by the bot's path itself
-- (`storage/src/clock_bot.rs`, `end_hand_over`, in the same transaction as the append). The bot's
-- path is the only one that records a command with a seat, no account and a bot level as it is
-- played (an import's commands name their level too, but its seats were never handed over), so
-- the trigger did nothing the path does not do. `tests/tests/e2e/clock_bot.rs` follows a hand-over
-- through the bot's move to its player's return.
DROP TRIGGER seats_clock_bot ON commands;
DROP FUNCTION seats_clock_bot();
