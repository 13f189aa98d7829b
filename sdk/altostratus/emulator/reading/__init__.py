"""Reading a service request: which operation it names (``routing``), its parts (``parts``),
the wire rules and bounds of its values (``params``), the formats of the service's values
(``formats``), how an operation's body is declared and read into typed fields (``fields``,
documented with the pieces of ``schemas``) and every operation's body (``bodies``). Nothing here
knows the state."""
