"""The monthly report (part 3): a printable summary of one month beside the month before."""
