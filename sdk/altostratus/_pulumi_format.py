"""What Pulumi writes into serialized properties (``pulumi stack export``, the engine's events),
read by the migration and by the runner's reading of the engine's events alike."""

from __future__ import annotations

#: The key marking a special value, such as a secret, in Pulumi's serialized properties
#: (``sig`` in the engine's ``resource/properties.go``, ``_special_sig_key`` in the Python SDK).
SECRET_SIGNATURE = "4dabf18193072939515e22adb298388d"
