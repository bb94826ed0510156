"""Every account's profile (issue 13): name and contact, e-mail change by link, password change,
sign-in history, active sessions."""
