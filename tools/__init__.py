"""Development tools of the project, run from the repository's root (``python -m tools.<name>``);
not part of the installed package."""
