"""``python -m ninetynine`` runs the command line."""

import sys

from ninetynine.cli.main import main

sys.exit(main())
