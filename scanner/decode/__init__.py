"""Rule decoding: the deal log and the running totals of a sheet, weighed with the rules engine."""
