"""Feedback as an author reads it: verdict, evidence in the answer, items, aspects, solution, rating."""
