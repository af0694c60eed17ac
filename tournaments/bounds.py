"""Bounds that keep a number inside what is stored and printed, whoever types or imports it (the
organiser's forms, an archive read back, the simulation): a round's deals (each a line of the
printed sheet: 28 fit one A4 page, more go on over a second), a place's points (summed as twelfths
in a 32-bit column), a round number (a small integer column on every database), a round's time."""

MAX_DEALS_PER_ROUND = 60
MAX_ROUND_MINUTES = 600
MAX_PLACE_POINTS = 1000
MAX_ROUND_NUMBER = 32767
