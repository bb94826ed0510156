import pytest

from sibol.identity.passwords import (
    generate_password,
    hash_password,
    meets_password_rule,
    strength_label,
    verify_password,
)


def test_hashes_are_argon2id_and_verify():
    stored = hash_password("Str0ng!pass")
    assert stored.startswith("$argon2id$")
    assert verify_password(stored, "Str0ng!pass")
    assert not verify_password(stored, "Str0ng!pasS")
    assert not verify_password(None, "x") and not verify_password("not-a-hash", "x")


@pytest.mark.parametrize(
    ("password", "label"),
    [
        ("", ""),  # No verdict before anything is typed
        ("a", "Very weak"),
        ("ab", "Very weak"),
        ("aB", "Weak"),
        ("aB1", "Medium"),
        ("aB1!", "Strong"),
        ("aB1!aaaa", "Very strong"),
        ("abcdefgh", "Weak"),
    ],
)
def test_strength_labels_follow_rules_met(password, label):
    assert strength_label(password) == label


def test_generated_passwords_meet_the_rule_and_differ():
    passwords = {generate_password() for _ in range(200)}
    assert len(passwords) == 200
    assert all(len(p) == 8 and meets_password_rule(p) for p in passwords)


def test_hash_parameters_follow_owasp_and_old_hashes_are_flagged_for_rehash():
    from argon2 import PasswordHasher

    from sibol.identity.passwords import needs_rehash

    stored = hash_password("Str0ng!pass")
    assert "$m=19456,t=2,p=1$" in stored
    assert not needs_rehash(stored)
    assert needs_rehash(PasswordHasher().hash("Str0ng!pass"))  # library defaults: upgraded at next sign-in


def test_password_advice_names_exactly_what_is_missing():
    from sibol.identity.passwords import password_advice

    assert password_advice("Abcdef1!") is None
    assert password_advice("abcdefgh").startswith(
        "Password needs an uppercase letter (A-Z), a number (0-9) and a symbol such as ! # ? or @. "
    )
    assert password_advice("Ab1!").startswith("Password needs at least 8 characters. ")
    assert password_advice("A" * 300) == "Password is too long: use at most 256 characters."
