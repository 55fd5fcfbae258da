-- A private game is not rated (issue 41): a rating is public, and its change after a game tells
-- strangers that the game was played, and how it went. The games created private so far are
-- flagged unrated (those finished and rated keep their `rating_changes` as history: profiles
-- list a private game only to those who may watch it), and no game is private and rated from now
-- on. `POST /v1/games` refuses `rated: true` with `visibility: private` before it gets here; a
-- rematch copies both flags from a game that obeys this.
UPDATE games SET rated = false WHERE visibility = 'private' AND rated;
ALTER TABLE games ADD CONSTRAINT games_private_unrated CHECK (visibility = 'open' OR NOT rated);
