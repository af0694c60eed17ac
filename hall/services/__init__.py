"""Writes of the hall: `check_in` (a player checks himself in), `referee_calls` (a table calls
the chief referee, who answers), `display_links` (the hall display's private link)."""
