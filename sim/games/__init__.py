"""One subpackage per game; each exposes ``GAME`` (found by ``sim.registry``)."""
