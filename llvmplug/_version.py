"""The package's version (its own module, so that the command can print it without importing the package root)."""

__version__ = "0.1.0"
