"""``python -m llvmplug``: the same as the ``llvmplug`` command."""

from .cli import run

run()
