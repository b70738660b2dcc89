"""Tables, statistics, charts and reports built from a run folder."""
