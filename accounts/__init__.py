"""Roles and accounts: who holds which role in a tournament (organisers, chief referees, table
referees) and the accounts behind them, and the pages' doors that ask
`tournaments.permissions` who may do what."""
