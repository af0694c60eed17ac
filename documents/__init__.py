"""Printed documents (reportlab): table score sheets, the seating list, the standings protocol.

    printing.py         what the views ask for: a document, in the tournament's language
    selectors.py        reads the database and asks the engine (every score is the engine's)
    score_sheets.py     a table's score sheet, one A4 page each (more past ~30 deals), blank or
                        filled; its rows (score_sheet_rows.py), data (sheet_data.py) and foot
                        (sheet_foot.py)
    seating_list.py     a round's seating list for the wall
    protocol.py         the standings protocol with its signature lines
    urls.py, views.py   the PDFs served to organisers, chief referees and the public
    layout.py           what they share: the level's variant, heading, footer, grids, signatures
    pen.py              drawing on a reportlab canvas
    fonts.py            the shipped TTF font, and reportlab's one process-wide setting
    qr.py               QR codes, encoded by zxing-cpp

The tournament's level picks the variant (layout.Variant): national documents add the federation
heading, licence numbers, table referees' signature lines, control totals and "page x of y".

Every document is printed in the tournament's language (Tournament.language), whatever the
language of whoever asks for it: its words, its dates and its numbers. The paper on the wall and
the protocol in the federation's files read the same for everyone.
"""
