"""The hall on the day: players checking themselves in (a code, or their private link), the
tables' calls to the chief referee, and the hall display's private link."""
