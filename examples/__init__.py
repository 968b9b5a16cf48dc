"""Example games outside MathCards' own: each a package that the app or a test registers."""
