"""``python -m altostratus.plugin``: the provider plugin, as ``pulumi-resource-altostratus``."""

from altostratus.plugin.server import main

main()
