"""The task editor's parts: declarative field sets, repeatable item rows, and the per-type layout."""
