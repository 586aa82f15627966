-- An eligibility answer's verdict as the audit keeps it: the office, the verdict, each
-- criterion's status, the facts asked for and an age band; never the facts a person stated.
ALTER TABLE answers ADD COLUMN eligibility jsonb;
