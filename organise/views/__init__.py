"""Organiser pages. Views stay thin: forms check input, services write, selectors read.

The parts: `tournaments` (dashboard, set-up, registrations), `rounds` (check-in, seating,
publication, the clock), `entry_links` (a table's entry link, a round closed), `register`
(players, clubs), `people` (roles, table referees), `signups`, `fee_pages`, `calls` (the tables'
calls answered), `display_links` (the hall display's link), `audit` (the audit log), `seasons` (a
final's qualification list, the seasons' rules). Who reaches the pages is `tournaments.access`."""
