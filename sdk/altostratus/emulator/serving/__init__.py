"""Serving the emulator's WSGI applications: the HTTP server (``server``), its defences against
slow, silent or hostile peers (``peers``), how much of a body is read (``limits``) and the line
printed for each request (``request_lines``). Nothing here knows the state, the routes or how a
request is read."""
