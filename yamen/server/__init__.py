"""The multiplayer server: the lobby over HTTP, live tables over WebSockets, storage and the
processes around them. It knows no game by name; docs/server.md describes its modules."""
