"""The collected static files as production serves them: hashed names, compressed copies."""

from __future__ import annotations

from whitenoise.storage import CompressedManifestStaticFilesStorage

# The phones' ES modules (a table's sheet, a player's messages) import each other as
# `import { x } from "./x.js";` (Biome keeps the double quotes). Only our own modules:
# third-party files name modules in their comments.
IMPORT_PATTERN = ((r"""(?P<matched>\bfrom\s*"(?P<url>\./[^"]+\.js)")""", 'from "%(url)s"'),)
MODULE_IMPORTS = ("js/table/*.js", IMPORT_PATTERN)
NOTICES_MODULE_IMPORTS = ("js/notices/*.js", IMPORT_PATTERN)


class HashedStaticFiles(CompressedManifestStaticFilesStorage):
    """Whitenoise's storage, which also writes the hashed names into the phone's modules'
    imports: a deployment that changes one module changes the address of every module that
    imports it, and the table links' service worker, which keeps the hashed names
    (entry/offline.py), serves every module of an offline reload."""

    patterns = (
        *CompressedManifestStaticFilesStorage.patterns,
        MODULE_IMPORTS,
        NOTICES_MODULE_IMPORTS,
    )
