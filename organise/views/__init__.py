"""Organiser pages. Views stay thin: forms check input, services write, selectors read.

The parts: `tournaments` (dashboard, set-up, registrations), `rounds` (check-in, seating,
publication, the clock, a round closed), `links` (a table's entry link, the hall
display's link), `register` (players, clubs), `people` (roles, table referees),
`signups` (registration online), `fees` (fee categories, fees paid), `referee_calls` (the tables'
calls answered), `audit` (the audit log), `seasons` (a final's qualification list, the seasons'
rules), `moved` (old addresses sent on). Who reaches the pages is `accounts.access`."""
