"""Account entry and recovery: sign-in, sign-up, e-mail verification, status, passwords, Google.

Every write commits once; e-mail goes out after the commit (a mail failure must not undo it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext as _
from flask_login import login_user, logout_user
from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError

from ..data.rows import as_id
from ..errors import Conflict, Forbidden, Invalid, NotFound, Unauthorized
from ..extensions import db
from ..i18n.languages import N_
from ..identity import lockout, onetime, sessions, totp, usernames
from ..identity.passwords import hash_password, needs_rehash, verify_password
from ..identity.tokens import issue_token, revoke_token
from ..inputs.fields import EMAIL_RE
from ..models import ROLE_DEFAULT_MODULES, Account, AccountStatus, Barangay, Module, RoleId, utcnow
from ..models.auth import TokenPurpose
from .mailings import lock_notice, verification_email, verification_link
from .tasks import verification_mail

# A real hash to verify against when the username is unknown, so both paths take as long.
_DUMMY_HASH = hash_password("not-a-real-password-Aa1!")

REFUSALS: dict[str, Any] = {
    AccountStatus.EMAIL_PENDING: N_("Please verify your email address before signing in."),
    AccountStatus.PENDING: N_("Your account is awaiting admin approval."),
    AccountStatus.REJECTED: N_("Your account registration was rejected."),
}
DISABLED = N_("Your account has been disabled. Contact your barangay administrator.")
BARANGAY_INACTIVE = N_("Your barangay has been deactivated. Contact your city administrator.")
WRONG = N_("Invalid username or password.")
NO_PASSWORD = N_("Your account has no password yet. Use the link in your approval email or Forgot Password.")  # noqa: S105
TEMPORARY_EXPIRED = N_(
    "Your temporary password has expired. Set your own with the link in your account email, or use Forgot Password."
)

# Spec section 5 messages.
NAME_CHARS = re.compile(r"[^\w .'\-]|[\d_]")  # letters of any alphabet (ñ, é), space . ' -
INVALID_EMAIL = N_("Please enter a valid email.")
INVALID_CODE = N_("Invalid or expired code. Request a new code if needed.")
CODE_FORMAT = N_("Code must be a 6-digit number.")
RESET_SENT = N_("Reset code sent. Check your email.")
CODE_OK = N_("Code verified. Enter your new password.")
RESET_OK = N_("Password reset successfully. You can now sign in with your new password.")  # noqa: S105
RESENT = N_("Verification email resent. Check your inbox.")
BAD_LINK = N_("This verification link is invalid or has expired.")
FAILED_GOOGLE = N_("Your account is not active.")
BAD_SET_LINK = N_("This link is invalid, has expired or has already been used.")
CODE_NEEDED = N_("Enter the 6-digit code from your authenticator app, or one of your recovery codes.")
WRONG_CODE = N_("That code is not right, or it was already used. Enter the current code from your app.")


class SecondFactorRequired(Unauthorized):
    """The password was right and the account has an authenticator: its code comes next."""

    def __init__(self, account: Account):
        super().__init__(_(CODE_NEEDED), field="totp", totpRequired=True)
        self.account = account


# Sign-in ------------------------------------------------------------------------------
LOGIN_MAX = 254  # a username or an e-mail address: sign-in takes either


def find_account(login: str) -> Account | None:
    """The account whose username or e-mail is `login` (case-insensitive)."""
    login = (login or "").strip().lower()
    if not 0 < len(login) <= LOGIN_MAX:
        return None
    return db.session.scalar(
        select(Account).where((func.lower(Account.username) == login) | (func.lower(Account.email) == login))
    )


def refuse_inactive(account: Account) -> None:
    if account.status != AccountStatus.ACTIVE:
        reason = _(REFUSALS.get(account.status, FAILED_GOOGLE))
        raise Forbidden(reason, status=account.status)
    if not account.is_enabled:
        raise Forbidden(_(DISABLED), status="disabled")
    if account.barangay is not None and not account.barangay.is_active:
        raise Forbidden(_(BARANGAY_INACTIVE), status="barangay_inactive")


def authenticate(username: str, password: str, second_factor: str | None = None) -> Account:
    """The active account for these credentials; raises Unauthorized/Forbidden saying why, or
    lockout.Locked / lockout.Throttled after too many wrong passwords (an unknown name is
    treated the same way). The check is counted before the password is compared.

    An account with an authenticator needs its code (or a recovery code) as `second_factor`:
    without one, SecondFactorRequired (the check is given back: nothing was guessed); a wrong
    one counts with the lockout exactly as a wrong password does."""
    if len((username or "").strip()) > LOGIN_MAX:  # no username or e-mail is longer: refused, not cut
        raise Invalid(
            _(
                "%(label)s must be at most %(max_length)s characters.",
                label=_("Username"),
                max_length=LOGIN_MAX,
            ),
            field="username",
        )
    account = find_account(username)
    try:
        attempt = lockout.begin(account, username)
    except lockout.Refused:
        verify_password(_DUMMY_HASH, password)  # the same work as any other answer
        raise
    if account is None:
        verify_password(_DUMMY_HASH, password)
        count_wrong_password(attempt)
        raise Unauthorized(_(WRONG))
    if not account.password_hash:
        # Self-registered accounts have no password until approval: say where they stand.
        verify_password(_DUMMY_HASH, password)
        attempt.release()
        refuse_inactive(account)
        raise Unauthorized(_(NO_PASSWORD))
    if not verify_password(account.password_hash, password):
        count_wrong_password(attempt)
        raise Unauthorized(_(WRONG))
    if account.password_expires_at is not None and account.password_expires_at <= utcnow():
        # A temporary password past its time signs in no more; the try counts as a failed one,
        # like any password that does not let the account in.
        count_wrong_password(attempt)
        raise Unauthorized(_(TEMPORARY_EXPIRED), status="password_expired")
    if totp.enrolled(account):
        if second_factor is None:
            attempt.release()
            raise SecondFactorRequired(account)
        if not totp.check_second_factor(account, second_factor):
            count_wrong_password(attempt)
            raise Unauthorized(_(WRONG_CODE), field="totp", totpRequired=True)
    attempt.succeeded()
    if needs_rehash(account.password_hash):
        account.password_hash = hash_password(password)
    db.session.commit()
    refuse_inactive(account)
    return account


def count_wrong_password(attempt: lockout.Attempt) -> None:
    """A password that did not let the account in: counted (commits), the owner e-mailed when a
    lock or the slowing starts (lockout.Notice), and lockout.Locked raised when this check began
    the lock. Every password check (sign-in, the profile's current password) ends a failure here."""
    notice = attempt.failed()
    if notice is not None:
        lock_notice(notice)
    attempt.raise_if_locked()


def start_session(account: Account, *, with_token: bool) -> str | None:
    """Sign the browser in (page session) and, for API callers, issue a bearer token tied to that
    page session, so signing out with the token ends both."""
    login_user(account)
    page = sessions.begin(account)
    token = issue_token(account, page_session_id=page.id) if with_token else None
    db.session.commit()
    return token


def end_session(raw_token: str | None) -> None:
    """Sign-out: the bearer token (if any) is revoked with the page session its sign-in opened,
    and the cookie's page session ends on the server."""
    if raw_token:
        sessions.end_for_token(raw_token)
        revoke_token(raw_token)
    sessions.end_current()
    db.session.commit()
    logout_user()


# Sign-up ------------------------------------------------------------------------------
def strip_name(value: str) -> str:
    return NAME_CHARS.sub("", value)


@dataclass
class SignupForm:
    role: int | None
    first_name: str
    last_name: str
    email: str
    barangay_id: object
    is_sso: bool = False


def _name(value: str, label: str, field: str) -> str:
    value = (value or "").strip()
    if not value:
        raise Invalid(_("%(label)s is required", label=label), field=field)
    if NAME_CHARS.search(value):
        raise Invalid(
            _("%(label)s can only contain letters, spaces, hyphens, apostrophes and periods", label=label),
            field=field,
        )
    if len(value) > 100:
        raise Invalid(_("%(label)s must be at most 100 characters.", label=label), field=field)
    return value


def validate_signup(form: SignupForm) -> tuple[int, str, str, str, int]:
    """Spec section 5 rules with their exact messages; returns clean values."""
    if form.role is None:
        raise Invalid(_("Role is required"), field="role")
    if form.role not in {1, 2, 3, 4}:
        raise Invalid(_("Choose a role: 1 Admin, 2 Barangay Staff, 3 Operator or 4 Household."), field="role")
    first = _name(form.first_name, "First name", "firstName")
    last = _name(form.last_name, "Last name", "lastName")
    email = (form.email or "").strip().lower()  # stored normalised: unique without regard to case
    if not email:
        raise Invalid(_("Email is required"), field="email")
    if len(email) > 254 or not EMAIL_RE.match(email):
        raise Invalid(_("Enter a valid email"), field="email")
    raw = form.barangay_id
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        raise Invalid(_("Barangay is required"), field="areaId")
    try:
        if isinstance(raw, bool) or isinstance(raw, float) and not raw.is_integer():
            raise ValueError
        if not isinstance(raw, str | int | float):
            raise TypeError
        barangay_id = int(raw.strip() if isinstance(raw, str) else raw)
    except (TypeError, ValueError):
        raise Invalid(_("Barangay must be a valid number"), field="areaId") from None
    if as_id(barangay_id) is None:
        raise Invalid(_("Barangay must be a valid number"), field="areaId")
    chosen = db.session.get(Barangay, barangay_id)
    if chosen is None or not chosen.is_active:  # Only active barangays take sign-ups
        raise Invalid(_("Choose a barangay from the list."), field="areaId")
    return form.role, first, last, email, barangay_id


def register(form: SignupForm, *, google: dict | None = None) -> Account:
    """Create a self-registered account (no password). Google sign-ups skip e-mail verification.

    `google` is the identity the provider vouched for in this browser session; an isSSO sign-up
    without it, or for another e-mail, is refused.
    """
    role, first, last, email, barangay_id = validate_signup(form)
    if form.is_sso:
        if not google or google.get("email", "").lower() != email.lower():
            raise Forbidden(
                _("Sign in with Google again to register with your Google account."), field="email"
            )
    existing = db.session.scalar(select(Account).where(func.lower(Account.email) == email.lower()))
    if existing is not None:
        if existing.status == AccountStatus.EMAIL_PENDING:
            raise Conflict(
                _(
                    "This email is already registered but not verified yet. Check your inbox or resend the verification email."
                ),
                field="email",
                pendingEmail=existing.email,
            )
        raise Conflict(_("An account with this email already exists."), field="email")
    account = Account(
        username=usernames.unique(usernames.from_email(email, first, last)),
        first_name=first,
        last_name=last,
        email=email,
        barangay_id=barangay_id,
        role_id=role,
        status=AccountStatus.PENDING if form.is_sso else AccountStatus.EMAIL_PENDING,
        is_sso=bool(form.is_sso),
        google_subject=(google or {}).get("sub") if form.is_sso else None,
        password_hash=None,
        modules=list(
            db.session.scalars(select(Module).where(Module.id.in_(ROLE_DEFAULT_MODULES[RoleId(role)])))
        ),
    )
    db.session.add(account)
    try:
        db.session.flush()
    except IntegrityError:  # a simultaneous sign-up took the e-mail or username first
        db.session.rollback()
        raise Conflict(
            _("An account with this email or username was just created. Try again."), field="email"
        ) from None
    link = None if form.is_sso else verification_link(account)
    db.session.commit()
    if link:
        verification_email(account, link)
    return account


def resend_verification(email: str) -> None:
    """Queue a new verification link for the address; the task sends it only when the e-mail
    waits for verification, so a known and an unknown address cost the request the same."""
    email = (email or "").strip()
    if not EMAIL_RE.match(email) or len(email) > 254:
        raise Invalid(_("Enter a valid email"), field="email")
    verification_mail(email)


def verify_email(raw: str) -> Account:
    token = onetime.find_link_token(raw, TokenPurpose.VERIFY_EMAIL)
    if token is None or not onetime.consume(token):  # one of simultaneous uses wins
        db.session.rollback()
        raise Invalid(_(BAD_LINK), field="token")
    account = token.account
    if account.status == AccountStatus.EMAIL_PENDING:
        account.status = AccountStatus.PENDING
    db.session.commit()
    return account


STATUS_MESSAGES: dict[str, Any] = {
    AccountStatus.ACTIVE: N_("Your account has been approved. You can now sign in."),
    AccountStatus.EMAIL_PENDING: N_("Please verify your email address first."),
    AccountStatus.PENDING: N_("Your account is still awaiting admin approval."),
    AccountStatus.REJECTED: N_("Your account registration was rejected."),
}


def check_status(login: str) -> tuple[Account, str, str]:
    """(account, status, message) for a username or e-mail."""
    account = find_account(login)
    if account is None:
        raise NotFound(_("No account found for that username or email."))
    if account.status == AccountStatus.ACTIVE and not account.is_enabled:
        return account, "disabled", _(DISABLED)
    if account.barangay is not None and not account.barangay.is_active:
        return account, "barangay_inactive", _(BARANGAY_INACTIVE)
    status = str(account.status)
    message = (
        _(STATUS_MESSAGES[status])
        if status in STATUS_MESSAGES
        else _("Your account status is %(status)s.", status=status)
    )
    if status == AccountStatus.REJECTED and account.rejection_reason:
        message += " " + _("Reason: %(reason)s", reason=account.rejection_reason)
    return account, status, message


# Passwords ----------------------------------------------------------------------------
def check_email(email: str) -> str:
    email = (email or "").strip()
    if not email or len(email) > 254 or not EMAIL_RE.match(email):
        raise Invalid(_(INVALID_EMAIL), field="email")
    return email


# Google -------------------------------------------------------------------------------
@dataclass
class GoogleOutcome:
    kind: str  # "active", "pending", "signup", "fail"
    account: Account | None = None
    message: str = ""


def google_sign_in(info: dict) -> GoogleOutcome:
    """Decide what a verified Google identity leads to (docs/auth.md lists the outcomes)."""
    sub = str(info.get("sub") or info.get("id") or "")[:255]
    email = str(info.get("email") or "").strip()[:254]
    if not sub or not EMAIL_RE.match(email) or info.get("email_verified") in (False, "false"):
        return GoogleOutcome("fail", message=_("Google did not confirm an e-mail address for this account."))
    account = db.session.scalar(select(Account).where(Account.google_subject == sub))
    if account is None:
        account = db.session.scalar(select(Account).where(func.lower(Account.email) == email.lower()))
        if account is not None and account.google_subject and account.google_subject != sub:
            return GoogleOutcome("fail", message=_("This email is linked to another Google account."))
    if account is None:
        return GoogleOutcome("signup")
    account.google_subject = sub
    if account.status == AccountStatus.EMAIL_PENDING:
        account.status = AccountStatus.PENDING  # Google vouches for the e-mail address
    db.session.commit()
    if account.status == AccountStatus.PENDING:
        return GoogleOutcome("pending", account)
    if account.is_active:
        return GoogleOutcome("active", account)
    reason = _(
        (DISABLED if not account.is_enabled else BARANGAY_INACTIVE)
        if account.status == AccountStatus.ACTIVE
        else REFUSALS.get(account.status, FAILED_GOOGLE)
    )
    return GoogleOutcome("fail", account, reason)


def barangays() -> list[Barangay]:
    """The barangays a sign-up may choose: the active ones."""
    return list(
        db.session.scalars(select(Barangay).where(Barangay.is_active.is_(True)).order_by(Barangay.name))
    )
