"""Helpers of the suite's tests, imported as ``tests.support.<module>``."""
