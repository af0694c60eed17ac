"""Scoring models.

Deal results (versioned submissions), table confirmation and the audit log come in a later issue.
"""
