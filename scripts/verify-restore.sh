#!/usr/bin/env bash
# Proves a backup restores to the same data: digest, back up, restore into a fresh database,
# digest again, compare. Uses DATABASE_URL (SQLite by default; mysql://... for MariaDB).
#   scripts/verify-restore.sh            # the configured database
set -euo pipefail
cd "$(dirname "$0")/.."
flask=(.venv/bin/python -m flask --app wsgi)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"${flask[@]}" digest > "$work/before.txt"
case "${DATABASE_URL:-sqlite}" in
  mysql*://*|mariadb://*)
    backup="$work/backup.sql"
    base="${DATABASE_URL%/*}"; name="${DATABASE_URL##*/}"; name="${name%%\?*}"
    copy="${name}_restore_check"
    host=$(python3 -c "from urllib.parse import urlsplit as u; p=u('$DATABASE_URL'); print(p.hostname or '127.0.0.1', p.port or 3306, p.username or 'root')")
    read -r h port user <<<"$host"
    mysql -h "$h" -P "$port" -u "$user" -e "DROP DATABASE IF EXISTS \`$copy\`; CREATE DATABASE \`$copy\` CHARACTER SET utf8mb4"
    trap 'mysql -h "$h" -P "$port" -u "$user" -e "DROP DATABASE IF EXISTS \`$copy\`"; rm -rf "$work"' EXIT
    restored_url="$base/$copy"
    ;;
  *)
    backup="$work/backup.sqlite3"
    restored_url="sqlite:///$work/restored.sqlite3"
    ;;
esac
"${flask[@]}" backup "$backup"
DATABASE_URL="$restored_url" "${flask[@]}" db upgrade heads >/dev/null 2>&1
DATABASE_URL="$restored_url" "${flask[@]}" restore --yes "$backup"
DATABASE_URL="$restored_url" "${flask[@]}" digest > "$work/after.txt"
if diff -u "$work/before.txt" "$work/after.txt"; then
  echo "Restore verified: $(wc -l < "$work/before.txt") tables, identical contents."
else
  echo "Restore differs from the original" >&2
  exit 1
fi
