"""Fixed-shape statements run through the database driver, for the batch write path.

A batch of 500 readings writes up to 1,500 rows (the readings, and each one's hour and day
rollup rows, shared by readings of one machine and hour). Handing them to
SQLAlchemy as dicts costs more than the database's own work: each row goes through
`construct_params` and each datetime through the dialect's processor in Python. Here a Core
statement is compiled once per dialect, with its parameters in a known order, and the rows go to
the driver's `executemany` as tuples (sqlite3 runs them in C; mysqlclient folds an INSERT into
multi-row statements). Values get the same bind processors SQLAlchemy would apply (on SQLite a
datetime becomes the text SQLAlchemy stores), with repeated values converted once.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from operator import itemgetter
from typing import Any, cast

from sqlalchemy import Connection, Table
from sqlalchemy.engine import Dialect

Build = Callable[[Dialect], Any]  # a statement: insert(), update(), select() or text()


class DriverStatement:
    """A statement whose parameters are `names`, compiled once per dialect, run positionally."""

    def __init__(self, table: Table, build: Build, names: Sequence[str], types: dict[str, Any] | None = None):
        self.table, self.build, self.names = table, build, tuple(names)
        self.types = types or {}  # parameter name -> SQL type, for names that are not columns
        self._compiled: dict[str, tuple[str, list[int], list[Callable | None]]] = {}

    def _prepare(self, dialect: Dialect) -> tuple[str, list[int], list[Callable | None]]:
        key = f"{dialect.name}:{dialect.paramstyle}"
        found = self._compiled.get(key)
        if found is None:
            compiled = self.build(dialect).compile(dialect=dialect, column_keys=list(self.names))
            order = list(compiled.positiontup or ())
            if sorted(order) != sorted(self.names):
                raise ValueError(f"statement parameters {order} are not {self.names}")
            processors = []
            for name in self.names:
                sql_type = self.types.get(name)
                if sql_type is None:
                    sql_type = self.table.c[name].type
                processors.append(sql_type.dialect_impl(dialect).bind_processor(dialect))
            found = (str(compiled), [self.names.index(n) for n in order], processors)
            self._compiled[key] = found
        return found

    def sql(self, dialect: Dialect) -> str:
        """The SQL text in the driver's parameter style, for callers that bind the parameters
        themselves: they come in `names` order (a ValueError if the statement orders them else)."""
        sql, order, _processors = self._prepare(dialect)
        if order != list(range(len(self.names))):
            raise ValueError(f"statement parameters are not in the order {self.names}")
        return sql

    def params(self, dialect: Dialect, rows: Iterable[Sequence]) -> tuple[str, list[tuple]]:
        """The SQL text and the rows as the driver's positional tuples."""
        sql, order, processors = self._prepare(dialect)
        converters = [(i, _memo(p)) for i, p in enumerate(processors) if p is not None]
        reorder = itemgetter(*order) if order != sorted(order) else None
        out = []
        for row in rows:
            if converters:
                row = list(row)
                for i, convert in converters:
                    if row[i] is not None:
                        row[i] = convert(row[i])
            out.append(reorder(row) if reorder is not None else tuple(row))
        return sql, out

    def executemany(self, connection: Connection, rows: Iterable[Sequence]) -> int:
        """Run the statement once per row; returns the rows the database reports as changed."""
        sql, params = self.params(connection.dialect, rows)
        if not params:
            return 0
        group = VALUES_GROUP.search(sql) if connection.dialect.driver == "mysqldb" else None
        if group is not None:
            return _multi_row(connection, sql[: group.start()] + "VALUES ", sql[group.end() :], params)
        return connection.exec_driver_sql(sql, params).rowcount

    def fetch(self, connection: Connection, row: Sequence) -> list[tuple]:
        """Run a SELECT with one set of parameters; the driver's raw rows."""
        sql, params = self.params(connection.dialect, [row])
        return [tuple(r) for r in connection.exec_driver_sql(sql, params[0])]

    def to_driver(self, dialect: Dialect, name: str) -> Callable[[Any], Any]:
        """How a value of parameter `name` is stored (identity when the driver takes it as is)."""
        processor = self._prepare(dialect)[2][self.names.index(name)]
        return processor if processor is not None else _same


VALUES_GROUP = re.compile(r"VALUES \((?:%s, )*%s\)")
MULTI_ROW_BYTES = 512 * 1024  # well under MariaDB's max_allowed_packet (16 MB by default)


def _multi_row(connection: Connection, head: str, tail: str, params: list[tuple]) -> int:
    """An INSERT as multi-row VALUES statements, its literals made as mysqlclient makes them.

    mysqlclient's own executemany does the same folding but quotes every value through Python
    calls (about 80,000 per batch of 500 readings); here numbers are formatted directly and every
    other value (datetimes, the few metric names) is quoted by the driver once per distinct value."""
    raw = cast(Any, connection.connection.dbapi_connection)
    quoted: dict = {}

    def literal(value: Any) -> str:
        kind = type(value)
        if kind is int:
            return str(value)
        if kind is float:
            text = repr(value)
            if text in ("inf", "-inf", "nan"):
                raise ValueError(f"{text} cannot be stored")
            return text if "e" in text else text + "e0"
        if value is None:
            return "NULL"
        found = quoted.get(value)
        if found is None:
            found = quoted[value] = raw.literal(value).decode()
        return found

    changed, chunk, size = 0, [], 0
    for row in params:
        text = "(" + ",".join([literal(v) for v in row]) + ")"
        chunk.append(text)
        size += len(text) + 1
        if size >= MULTI_ROW_BYTES:
            changed += connection.exec_driver_sql(head + ",".join(chunk) + tail).rowcount
            chunk, size = [], 0
    if chunk:
        changed += connection.exec_driver_sql(head + ",".join(chunk) + tail).rowcount
    return changed


def _same(value: Any) -> Any:
    return value


def _memo(convert: Callable) -> Callable:
    """`convert` with its results kept for the batch: a batch repeats few distinct datetimes."""
    seen: dict = {}

    def converted(value: Any) -> Any:
        try:
            return seen[value]
        except KeyError:
            seen[value] = result = convert(value)
            return result

    return converted
