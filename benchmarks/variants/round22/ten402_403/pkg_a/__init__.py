"""TEN402 across modules: snapshot helpers, a registry, an EMA helper and callbacks."""
