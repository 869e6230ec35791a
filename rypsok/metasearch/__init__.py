"""The search side: choosing engines, running them under the deadline, merging."""
