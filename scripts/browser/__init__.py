"""The browser checks of scripts/browser-test, one module per area; each has run(t) (see harness.Suite)."""
