"""The games: one package each, whose ``Game`` subclass declares its type and options (see
:mod:`yamen.engine`). A game is listed by one line in :data:`yamen.engine.REGISTRY`; nothing
registers itself."""
