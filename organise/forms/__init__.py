"""The organiser's forms, one module per concern as the views are: `tournament` (a tournament and
its options), `register` (players, clubs, an import), `registrations`, `rounds` (check-in,
seating, a swap), `fees`, `signups`, `seasons` (the ranking's seasons and a final's
invitations), `people` (roles, table referees, the audit log's filter), and `fields` (what they
share). Each checks its input with the rule that lives in the engine."""
