"""Pure rules engines: state and actions in, new state and events out. No I/O."""
