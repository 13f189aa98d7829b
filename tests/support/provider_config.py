"""The stack config the engine gives the providers, for a provider process or this process's
providers configured against an emulator."""

from __future__ import annotations

from altostratus.emulator import Emulator


def stack_config(emulator: Emulator, **extra: str) -> dict[str, str]:
    """The emulator's key and address as ``altostratus:apiKey`` and ``altostratus:apiUrl``, and
    the ``extra`` keys."""
    return {
        "altostratus:apiKey": emulator.api_key,
        "altostratus:apiUrl": emulator.api_url,
        **extra,
    }
