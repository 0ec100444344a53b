"""The rules engine: state, the decision stack, and one module per game concept."""
