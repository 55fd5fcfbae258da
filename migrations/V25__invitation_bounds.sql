-- Bounds on invitations by name (issue 41; `storage/src/invitation_bounds.rs`): an account may
-- refuse invitations from strangers (accounts it never sat with at a game that started); a
-- sender invites a bounded number of strangers a day; a recipient is told by mail and push of a
-- bounded number of invitations from strangers a day, the rest only listed.

ALTER TABLE notice_settings ADD COLUMN refuse_stranger_invitations boolean NOT NULL DEFAULT false;

-- Whether the invitee was a stranger to the inviter when invited, and whether it was announced
-- by mail and push (what the two daily counts count).
ALTER TABLE invitations ADD COLUMN from_stranger boolean NOT NULL DEFAULT false;
ALTER TABLE invitations ADD COLUMN announced boolean NOT NULL DEFAULT false;

-- A sender's invitations of strangers in the last day.
CREATE INDEX invitations_of_strangers_by_sender ON invitations (invited_by, created_at)
    WHERE from_stranger;
