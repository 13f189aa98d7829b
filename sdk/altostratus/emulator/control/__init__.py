"""The emulator's test controls: the admin endpoints under ``/_emulator/`` (``endpoints``, the
HTTP end) and the Python calls that use them (``client``, the other end), injected faults
(``faults``), the request log (``request_log``), the rate limiter (``rate_limit``), seed files
(``seed``, ``seed_export``) and who may call the endpoints (``same_origin``)."""
