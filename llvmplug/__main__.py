"""``python -m llvmplug``: the same as the ``llvmplug`` command."""

import sys

from .cli import main

sys.exit(main())
