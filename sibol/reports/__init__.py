"""The monthly report (issue 16 part 3): a printable summary of one month beside the month before."""
