"""Runtime verification of every rule's claims. Imports torch; the linter never imports this."""
