"""One module per LSP feature; each has `register(server)`."""
