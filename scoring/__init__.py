"""Deal results, table confirmation, audit log, standings and documents."""
