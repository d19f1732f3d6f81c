"""The games. Each registers itself in :data:`yamen.engine.REGISTRY`."""
