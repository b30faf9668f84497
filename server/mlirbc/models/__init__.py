"""Dialect models: everything the reader knows about a dialect, registered in one swappable registry."""
