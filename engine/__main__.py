"""`python -m engine`: the engine's command line (engine.cli), with its exit status."""

import sys

from engine.cli import main

sys.exit(main())
