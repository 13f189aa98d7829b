"""Text from outside (a request's path, a delivery's fields) made safe to print on a terminal."""

from __future__ import annotations


def escaped(text: str) -> str:
    """``text`` with every character a terminal would act on (control characters C0 and C1,
    format characters, line and paragraph separators) written as its Python escape (``\\x1b``,
    ``\\n``, ``\\x9b``), so what is printed cannot move the cursor, retitle or clear the screen,
    or forge a line of output; printable text, other scripts included, is kept as it is."""
    if text.isprintable():
        return text
    return "".join(
        ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in text
    )
