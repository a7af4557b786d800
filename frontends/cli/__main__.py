"""``python -m frontends.cli ...``: the ``madang`` command without its console script."""

import sys

from . import main

sys.exit(main())
