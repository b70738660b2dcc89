"""Example boardsim strategy plugin (see ``collector``)."""
