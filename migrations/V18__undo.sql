-- Undo (taking back one's last command, see README "Undo" and domain/src/take_back.rs).
-- Whether a game allows it: chosen at creation (`"undo": false` turns it off), copied by rematches.
ALTER TABLE games ADD COLUMN undo boolean NOT NULL DEFAULT true;
-- Where a command's events start (the version before them) and whether it revealed anything
-- (drew randomness, produced an event not shown as-is to everybody, or ended the game), judged
-- when it was decided. NULL: the server's own commands, and those older than undo; neither is
-- ever taken back.
ALTER TABLE commands ADD COLUMN position bigint;
ALTER TABLE commands ADD COLUMN reveals boolean;
-- The take-backs of a game, found without reading its log: the event log marks the events they
-- took back, judged at the version a read names.
CREATE INDEX events_take_backs ON events (game_id, version) WHERE type = 'CommandTakenBack';
