"""Rate limit of the password change, shared by its API and its page form (one bucket per address).

The current password it asks for is also counted with the sign-in checks (sibol/identity/lockout.py);
this limit keeps one client from spending those checks faster than a person types.
"""

from __future__ import annotations

from ..extensions import limiter

change_password = limiter.shared_limit("10 per minute", scope="profile-password", methods=["POST"])

# Setting up and turning off the second factor (API and page forms together).
two_factor = limiter.shared_limit("10 per minute", scope="profile-two-factor", methods=["POST", "DELETE"])
