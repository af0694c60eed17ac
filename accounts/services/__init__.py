"""Writes for roles and accounts: `roles` (roles given and taken, the referees of tables, a
referee's account) and `organisers` (an organiser's account, from the command line)."""
