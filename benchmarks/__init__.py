"""Benchmarks of altostratus: what each operation costs, beside the floor the API allows.

Run ``python -m benchmarks`` from the repository root (``--quick`` for a smoke run,
``--sections`` to pick sections). The figures are printed and written to ``docs/benchmarks.md``.
"""
