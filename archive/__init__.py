"""The tournament archive: one JSON document with everything about a tournament, and its import.

Each table's sheet is in the engine's sheet format (README, "The engine's command line") with
the players' names and the rules of its own round (each round keeps the rule set it was
published with: `tournaments.rule_set`), so anyone can re-score it with `python -m engine score`
and get the confirmed totals written beside it. Beside the sheet, the archive keeps what
the sheet does not show but an organiser would miss after a restore: every version of every deal
(corrections and removed entries, with who, when and why), who confirmed each table, the
check-ins (how and when) and who was marked absent, the seating warnings and flags, late
arrivals and players out of the round, the calls to the chief referee, the fee categories and
the fees paid, the online registrations, the accounts' roles (organisers, chief referees, table
referees) and the tournament's audit log.

Not in the archive, on purpose: the secrets of the hall (the tables' private entry links, the
players' own check-in links, the hall display's private link, the rounds' check-in codes:
whoever holds the file could write or check in with them; an import issues new ones), the
devices' client keys, IP addresses (personal data, and nothing to check a result with) and user
accounts beyond their usernames.

`tournament_archive` is a read (a selector): it writes nothing, and its number of queries does
not grow with the tournament. `tournament_import` is its inverse (a service): it checks the whole
archive first, every sheet re-scored by the engine, and then writes it in one transaction.

The parts: `format` (the archive's name and versions, shared helpers), `export` (the archive
written), `reading` (the file parsed, each field checked), `plan` (the rows an import writes),
`checking` (the whole archive checked and planned, with the checks of its people in
`people_checks`, of its rounds in `round_checks` and of their tables in `table_checks`), `writing`
(the plan written). The package imports nothing here: Django imports it before the models are
ready.
"""
