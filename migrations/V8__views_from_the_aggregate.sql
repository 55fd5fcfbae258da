-- Each viewer's board is no longer stored: it is the view of the in-memory aggregate at the
-- version a read names. Writing one JSON document per seat plus the spectator in every
-- command's statement cost more than half of the database's time per command (the documents
-- are large: PostgreSQL parsed, compressed and WAL-logged them on every command).
DROP TABLE views;
