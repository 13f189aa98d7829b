"""The pytest plugin's former name: naming it loads ``altostratus.testing.pytest_plugin``, where
the plugin lives now (its stacks belong to ``altostratus.testing``; the emulator does not import
it)."""

pytest_plugins = ["altostratus.testing.pytest_plugin"]
