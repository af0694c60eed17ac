"""Players, clubs and tournaments: registration, rounds, tables and seating."""
