"""The ``ninetynine`` command line: one module per subcommand."""
