"""Rate limits shared by the JSON API and the no-JavaScript page forms of password recovery.

One bucket per step for both ways in, so the page forms do not double what a client may try.
"""

from __future__ import annotations

from ..extensions import limiter

# Sign-in: the API and the page form count in one bucket per address.
login = limiter.shared_limit("10 per minute", scope="auth-login", methods=["POST"])
forgot_password = limiter.shared_limit("5 per minute", scope="auth-forgot-password", methods=["POST"])
verify_reset_code = limiter.shared_limit("10 per minute", scope="auth-verify-reset-code", methods=["POST"])
reset_password = limiter.shared_limit("10 per minute", scope="auth-reset-password", methods=["POST"])
