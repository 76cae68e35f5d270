"""Drives lakesql serve through PyMySQL or SQLAlchemy (Debian's packages, so
run it with /usr/bin/python3), or through MySQL's mysql-connector-python
(PyPI, in the venv .ci/clients makes), and prints the transcript that
integration/clients_test.go compares.

    /usr/bin/python3 client.py pymysql|sqlalchemy HOST PORT
    VENV/bin/python client.py mysqlconnector HOST PORT

Every value is printed in the transcript's canonical form if the driver
decoded it to the Python type a MySQL server's column type gives (Decimal,
date, datetime, int, str); otherwise as <type repr>, so a server that sends
the right text with the wrong column type still fails the comparison.
"""

import datetime
import decimal
import sys

DDL = """CREATE TABLE orders (
  region VARCHAR(8) NOT NULL,
  id BIGINT NOT NULL,
  amount DECIMAL(12,2),
  placed DATE,
  updated DATETIME(6),
  note VARCHAR(32),
  PRIMARY KEY (region, id)
) PARTITION BY LIST COLUMNS (region)"""

COLUMNS = "region, id, amount, placed, updated, note"

# The rows are bound as parameters; PyMySQL's executemany sends one
# multi-row INSERT for them, so each batch is one statement and one commit.
FIRST_ROWS = [
    ("eu", 1, decimal.Decimal("10.50"), datetime.date(2026, 4, 16),
     datetime.datetime(2026, 4, 16, 10, 11, 12, 345000), "first"),
    ("us", 2, decimal.Decimal("1234567.89"), datetime.date(2026, 4, 17),
     datetime.datetime(2026, 4, 17, 0, 0, 0), None),
    ("eu", 3, None, None, None, "x"),
]
SECOND_ROWS = [
    ("eu", 1, decimal.Decimal("11.00"), datetime.date(2026, 4, 16),
     datetime.datetime(2026, 4, 18, 8, 0, 0), "corrected"),
    ("us", 4, decimal.Decimal("-0.05"), datetime.date(2026, 12, 31),
     datetime.datetime(2026, 12, 31, 23, 59, 59, 999000), "second"),
]
INSERT = "INSERT INTO orders (" + COLUMNS + ") VALUES (%s, %s, %s, %s, %s, %s)"

BAD_SQL = [
    ("syntax error", "SELEC * FROM orders"),
    ("unknown table", "SELECT * FROM no_such_table"),
]


def canonical(value, want=None):
    """The transcript form of one value. A value of another Python type than
    want (the type a MySQL server's column type decodes to) is printed as
    <type repr>, so the transcript comparison shows it and the run goes on."""
    if value is None:
        return "NULL"
    if want is not None and type(value) is not want:
        return f"<{type(value).__name__} {value!r}>"
    if isinstance(value, datetime.datetime):
        return value.strftime("%Y-%m-%d %H:%M:%S.%f")
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, (decimal.Decimal, int, str)) and not isinstance(value, bool):
        return str(value)
    return f"<{type(value).__name__} {value!r}>"


ORDER_TYPES = (str, int, decimal.Decimal, datetime.date, datetime.datetime, str)


def emit(label, rows, types=()):
    for row in rows:
        wants = types or (None,) * len(row)
        print(label + "\t" + "\t".join(canonical(v, w) for v, w in zip(row, wants)))


def query(cur, sql, args=None):
    cur.execute(sql, args)
    return cur.fetchall()


def run_pymysql(host, port):
    # Imported here: the mysqlconnector mode runs where PyMySQL is not installed.
    import pymysql

    conn = pymysql.connect(host=host, port=port, user="root", password="", autocommit=True)
    cur = conn.cursor()
    cur.execute("CREATE DATABASE shop")
    conn.select_db("shop")
    cur.execute(DDL)
    cur.executemany(INSERT, FIRST_ROWS)
    emit("first", query(cur, f"SELECT {COLUMNS} FROM orders ORDER BY id"), ORDER_TYPES)
    cur.executemany(INSERT, SECOND_ROWS)
    emit("latest", query(cur, f"SELECT {COLUMNS} FROM orders ORDER BY id"), ORDER_TYPES)
    emit("as of 1", query(cur, f"SELECT {COLUMNS} FROM orders FOR VERSION AS OF 1 ORDER BY id"), ORDER_TYPES)
    emit("filtered", query(cur, "SELECT id, amount FROM orders WHERE region = %s AND amount > %s ORDER BY id",
                           ("eu", decimal.Decimal("0"))), (int, decimal.Decimal))
    connection_id = conn.thread_id()
    for label, sql in BAD_SQL:
        try:
            cur.execute(sql)
            print(f"{label}\tno error")
        except pymysql.MySQLError as e:
            print(f"{label}\t{e.args[0]}")
    emit("totals", query(cur, "SELECT COUNT(*), SUM(amount) FROM orders"), (int, decimal.Decimal))
    emit("same connection", query(cur, "SELECT CONNECTION_ID() = %s", (connection_id,)))
    conn.close()


def run_mysqlconnector(host, port):
    """MySQL's own Python driver. Its executemany sends one multi-row INSERT;
    the parameterised reads go through its prepared cursor
    (COM_STMT_PREPARE / COM_STMT_EXECUTE, values in the binary protocol)."""
    import mysql.connector

    conn = mysql.connector.connect(host=host, port=port, user="root", password="", autocommit=True)
    cur = conn.cursor()
    prepared = conn.cursor(prepared=True)
    cur.execute("CREATE DATABASE shop")
    conn.database = "shop"
    cur.execute(DDL)
    cur.executemany(INSERT, FIRST_ROWS)
    emit("first", query(cur, f"SELECT {COLUMNS} FROM orders ORDER BY id"), ORDER_TYPES)
    cur.executemany(INSERT, SECOND_ROWS)
    emit("latest", query(prepared, f"SELECT {COLUMNS} FROM orders ORDER BY id"), ORDER_TYPES)
    emit("as of 1", query(cur, f"SELECT {COLUMNS} FROM orders FOR VERSION AS OF 1 ORDER BY id"), ORDER_TYPES)
    emit("filtered", query(prepared, "SELECT id, amount FROM orders WHERE region = %s AND amount > %s ORDER BY id",
                           ("eu", decimal.Decimal("0"))), (int, decimal.Decimal))
    for label, sql in BAD_SQL:
        try:
            cur.execute(sql)
            cur.fetchall()
            print(f"{label}\tno error")
        except mysql.connector.Error as e:
            print(f"{label}\t{e.errno}")
    emit("totals", query(prepared, "SELECT COUNT(*), SUM(amount) FROM orders"), (int, decimal.Decimal))
    emit("same connection", query(prepared, "SELECT CONNECTION_ID() = %s", (conn.connection_id,)))
    conn.close()


def run_sqlalchemy(host, port):
    # Imported here: the pymysql mode must run where only PyMySQL is installed.
    import sqlalchemy as sa

    admin = sa.create_engine(f"mysql+pymysql://root:@{host}:{port}/", future=True)
    with admin.connect() as conn:
        conn.execute(sa.text("CREATE DATABASE shop"))
    admin.dispose()

    engine = sa.create_engine(f"mysql+pymysql://root:@{host}:{port}/shop", future=True)
    with engine.begin() as conn:
        conn.execute(sa.text(DDL))
        # A Paimon file index (a bloom filter on note), which MySQL tools
        # see as a secondary KEY.
        conn.execute(sa.text("CREATE INDEX idx_note ON orders (note)"))
    reflect(engine)

    # The Core table is reflected too, so the reads below go through the
    # column types SQLAlchemy derived from SHOW CREATE TABLE.
    orders = sa.Table("orders", sa.MetaData(), autoload_with=engine)
    names = COLUMNS.split(", ")
    by_id = sa.select(*[orders.c[name] for name in names]).order_by(orders.c.id)
    with engine.connect() as conn:
        # One Core insert with a list of rows is one executemany, which
        # PyMySQL sends as one multi-row INSERT.
        conn.execute(orders.insert(), [dict(zip(names, row)) for row in FIRST_ROWS])
        conn.commit()
        emit("first", conn.execute(by_id).all(), ORDER_TYPES)
        conn.execute(orders.insert(), [dict(zip(names, row)) for row in SECOND_ROWS])
        conn.commit()
        emit("latest", conn.execute(by_id).all(), ORDER_TYPES)
        emit("as of 1", conn.execute(sa.text(f"SELECT {COLUMNS} FROM orders FOR VERSION AS OF 1 ORDER BY id")).all(),
             ORDER_TYPES)
        emit("filtered", conn.execute(
            sa.select(orders.c.id, orders.c.amount)
            .where(orders.c.region == "eu", orders.c.amount > decimal.Decimal("0"))
            .order_by(orders.c.id)).all(), (int, decimal.Decimal))
        connection_id = conn.execute(sa.text("SELECT CONNECTION_ID()")).scalar_one()
        for label, sql in BAD_SQL:
            try:
                conn.execute(sa.text(sql))
                print(f"{label}\tno error")
            except sa.exc.DBAPIError as e:
                print(f"{label}\t{e.orig.args[0]}")
                conn.rollback()
        emit("totals", conn.execute(sa.select(sa.func.count(), sa.func.sum(orders.c.amount))).all(),
             (int, decimal.Decimal))
        emit("same connection", conn.execute(sa.text("SELECT CONNECTION_ID() = :id"), {"id": connection_id}).all())
    engine.dispose()


def reflect(engine):
    """Prints what SQLAlchemy's inspector (Superset's path) sees of the table."""
    import sqlalchemy as sa

    inspector = sa.inspect(engine)
    print("tables\t" + "\t".join(inspector.get_table_names()))
    for col in inspector.get_columns("orders"):
        print(f"column\t{col['name']}\t{col['type'].compile(dialect=engine.dialect)}\tnullable={col['nullable']}")
    pk = inspector.get_pk_constraint("orders")
    print("primary key\t" + "\t".join(pk["constrained_columns"]))
    for index in inspector.get_indexes("orders"):
        print(f"index\t{index['name']}\t" + "\t".join(index["column_names"]) + f"\tunique={index['unique']}")


def main():
    mode, host, port = sys.argv[1], sys.argv[2], int(sys.argv[3])
    {"pymysql": run_pymysql, "sqlalchemy": run_sqlalchemy, "mysqlconnector": run_mysqlconnector}[mode](host, port)


if __name__ == "__main__":
    main()
