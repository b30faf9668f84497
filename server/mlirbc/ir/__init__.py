"""The in-memory IR: uniqued attributes and types, operations, blocks, regions, and the module record."""
