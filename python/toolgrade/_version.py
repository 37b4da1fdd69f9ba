"""The toolgrade version; python/build reads it."""

__version__ = "0.1.0"
