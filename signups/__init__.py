"""Sign-ups: registration online on a tournament's public page, the list and the waiting list,
until the organiser accepts (a registration) or refuses each."""
