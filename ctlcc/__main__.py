"""``python -m ctlcc`` runs the ``ctlcc`` command."""

import sys

from .cli import main

sys.exit(main())
