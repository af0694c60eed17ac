"""gunicorn's settings (`make serve`, bench/load.py, tests/test_crash.py): gunicorn reads this
file from the directory it starts in. Processes, threads and the address come from the command
line (the Makefile's WORKERS, THREADS and BIND).

A stop (SIGTERM: a deploy, systemd) is graceful and short: each process stops accepting, lets
the requests it holds finish for at most `graceful_timeout` seconds, and exits. A process takes
no more connections than it can answer soon (`worker_connections`): the rest wait in the
listening socket, not in a queue the process would have to work through before it may stop.
Requests never block for long on the database (settings: connect_timeout; the retry after a
dropped connection waits 2 s at most), so nothing holds a stop up."""

worker_class = "gthread"
graceful_timeout = 10
timeout = 30
keepalive = 2
worker_connections = 64
