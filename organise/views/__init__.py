"""Organiser pages. Views stay thin: forms check input, services write, selectors read.

The parts: `access` (who reaches the pages), `tournaments` (dashboard, set-up, entries),
`rounds` (check-in, seating, publication, the clock), `register` (players, clubs), `people`
(roles, table referees), `audit` (the audit log)."""
