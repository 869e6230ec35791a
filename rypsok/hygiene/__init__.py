"""Cleaning of text that other sites wrote: invisible characters, whitespace and bounds."""
